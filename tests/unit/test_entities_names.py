"""Names in spoken text: read by spaCy's English pipeline and the library's known names, partial
names resolved to the full one, German notes by known names and careful rules. The sentences are
written for these tests (no evaluation set's notes)."""

from __future__ import annotations

from datetime import datetime

from memory.store.recordings import Segment
from memory.text.doc import Doc
from memory.text.entities import NAME_KINDS, doc_entities, sentence_entities
from memory.text.name_book import NameBook
from memory.text.name_words import common_word
from memory.text.names import NamedEntity

WHEN = datetime(2026, 4, 14, 9, 0)


def doc_of(*texts: str, spoken_at: str = "2026-04-14T09:00:00") -> Doc:
    segments = [
        Segment(i + 1, 1, i, None, i * 5.0, i * 5.0 + 4.5, None, t, t, False) for i, t in enumerate(texts)
    ]
    return Doc(segments, spoken_at)


def names_of(doc: Doc, book: NameBook | None = None) -> list[NamedEntity]:
    return [e for e in doc_entities(doc, book) if isinstance(e, NamedEntity) and e.kind in NAME_KINDS]


def test_capitalised_words_that_name_nothing_are_not_names() -> None:
    doc = doc_of(
        "Honestly the Weather was Terrible, but Orla Fitzgerald from Harrowgate Logistics still came.",
        "Budget is tight this quarter, and the budget review is on Friday.",
    )
    values = {e.value for e in names_of(doc)}
    assert "orla fitzgerald" in values
    assert any("harrowgate" in v for v in values)
    assert not values & {"weather", "terrible", "honestly", "budget", "friday"}


def test_a_name_the_library_knows_is_a_name_where_the_model_misses_it() -> None:
    doc = doc_of("Tormund owes us the stock export.")
    assert not {e.value for e in names_of(doc)} & {"tormund"}  # the model alone misses it
    book = NameBook(project_id=1)
    book.add("Tormund", "tormund", "person", project=2)
    assert {e.value for e in names_of(doc, book)} == {"tormund"}


def test_a_partial_name_is_the_full_one_once_it_was_said() -> None:
    doc = doc_of(
        "We met Rosalind Achebe, the finance lead, at the depot.",
        "Rosalind wants the invoices split by site.",
        "Then Dr Benedikt Hallgrimsson joined, and Hallgrimsson asked about the pilot.",
        "Dr Hallgrimsson wants a second demo.",
    )
    found = {(e.text, e.value) for e in names_of(doc)}
    assert ("Rosalind", "rosalind achebe") in found
    assert ("Hallgrimsson", "benedikt hallgrimsson") in found  # after a title: the surname too
    person = [e for e in names_of(doc) if e.value == "rosalind achebe"]
    assert {e.label for e in person} == {"person"}


def test_a_given_name_is_the_full_one_said_in_another_note_of_the_project() -> None:
    book = NameBook(project_id=7)
    book.add("Ingrid Solheim", "ingrid solheim", "person", project=7)
    book.add("Ingrid Baptiste", "ingrid baptiste", "person", project=8)  # another project's Ingrid
    doc = doc_of("Ingrid signed the order this morning.")
    assert [e.value for e in names_of(doc, book)] == ["ingrid solheim"]


def test_german_names_come_from_titles_codes_and_runs_not_from_capitalised_nouns() -> None:
    doc = doc_of(
        "Unser Ansprechpartner ist Jonas Brenner, der Einkaufsleiter, sehr gründlich.",
        "Frau Doktor Petra Lindqvist prüft vorher den Vertrag zur Auftragsverarbeitung.",
        "Die Versicherung will wissen, ob die Spedition unter DORA2 fällt, wegen der Halle.",
        "Jonas schickt den Datenabzug bis Freitag.",
    )
    found = {e.value: e for e in names_of(doc)}
    assert {"jonas brenner", "petra lindqvist", "dora2"} <= set(found)
    assert found["petra lindqvist"].label == "person"  # after a title
    assert not set(found) & {"versicherung", "spedition", "halle", "vertrag", "auftragsverarbeitung"}
    jonas = [e for e in names_of(doc) if e.text == "Jonas"]
    assert jonas and jonas[0].value == "jonas brenner"


def test_a_german_note_finds_the_names_the_library_knows() -> None:
    book = NameBook(project_id=1)
    book.add("Quillmark", "quillmark", "product", project=2)
    doc = doc_of("Nach den Demotagen ist Quillmark klarer Favorit, die Lagerleute fanden es gut.")
    assert [e.value for e in names_of(doc, book)] == ["quillmark"]
    assert [e.value for e in names_of(doc)] == []  # unknown, a capitalised word is a German noun


def test_a_one_word_name_that_is_an_english_word_is_common() -> None:
    assert common_word("Budget") and common_word("SAP") and common_word("vienna")
    assert not common_word("Quillmark") and not common_word("Harrowgate Logistics")


def test_codes_are_names_and_their_digits_are_not_counts() -> None:
    found = {
        (e.kind, e.value) for e in sentence_entities("The insurer asks whether we fall under DORA2.", WHEN)
    }
    assert ("name", "dora2") in found and not any(k == "count" for k, _ in found)
