"""Supersession by meaning, end to end: notes written for this test (not from the evaluation sets),
imported through the normal path and consolidated with the rules (no chat model). A later fact
supersedes an earlier one about the same thing of the same kind of value, however the value is
said (words, "380k", "next Thursday", German); saying the same value again is a restatement; an
aside in another project's note is filed there but supersedes the facts of the project it is
about; hedged sentences give no stated fact."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from app.ask import AskRequest, ask
from app.consolidation.service import consolidate
from app.ingest.imports import import_corpus
from app.library import Library
from app.paths import DataDir
from memory.consolidate.fact_store import list_facts
from memory.consolidate.facts import Fact
from memory.store.projects import get_project
from tests.conftest import MODELS_DIR, require_models
from tests.support.consolidation_corpus import write_corpus

pytestmark = pytest.mark.slow  # a library indexed with the embedding model, built once

NOTES = [
    ("orchard:1", "orchard-clinic", "Orchard kickoff", "2026-02-02T09:00:00", [
        "Kickoff at Orchard Clinic, the new patient portal is the topic.",
        "The licence budget for the portal is four hundred and twenty thousand pounds.",
        "The data freeze is on Friday the 20th of March.",
        "Our contact for the migration is Hannah Lowe.",
        "We'll use Quillpoint for the reminder texts.",
        "The training budget is fifteen thousand pounds.",
        "If the trust approves it, phase two would get another 90,000 pounds.",
        "I think the go-live could be the 4th of May.",
        "The deposit was 20,000 pounds, but that's only for the first site.",
        "Is the vendor demo on the 12th of February?",
        "The pilot is not on the 9th of March, nobody agreed to that.",
        "We agreed a review every month, and the first one is Tuesday the 14th of April at ten.",
    ]),
    ("falkenberg:1", "falkenberg-logistik", "Falkenberg Auftakt", "2026-02-05T10:00:00", [
        "Notizen zum Auftakt bei Falkenberg Logistik.",
        "Das Budget für die Schulungen liegt bei 45.000 Euro.",
        "Der Go-live ist am dritten Juni geplant.",
        "Die Abnahme ist am zwanzigsten Februar.",
        "Vielleicht kostet die Lizenz noch einmal 30.000 Euro.",
    ]),
    ("falkenberg:2", "falkenberg-logistik", "Falkenberg Update", "2026-03-02T10:00:00", [
        "Kurzes Update zu Falkenberg.",
        "Das Budget für die Schulungen liegt jetzt bei zweiundfünfzigtausend Euro.",
        "Der Go-live bleibt am 03.06.2026.",
        "Die Abnahme ist jetzt Ende nächster Woche.",
    ]),
    ("falkenberg:3", "falkenberg-logistik", "Falkenberg Termine", "2026-03-20T10:00:00", [
        "Falkenberg, neue Termine.",
        "Der Go-live ist jetzt am ersten Juli.",
    ]),
    ("orchard:2", "orchard-clinic", "Orchard update", "2026-03-10T10:00:00", [
        "Quick update on the portal.",
        "The licence budget has been cut to 380k.",
        "The data freeze has moved to next Thursday.",
        "We're switching the reminder texts from Quillpoint to Notifyly.",
        "Our contact for the migration is still Hannah Lowe.",
        "The training budget is still 15k, same as before.",
        "The review on the 14th is off, they've put it on Wednesday the 22nd of April instead.",
    ]),
    ("kestrel:1", "kestrel-freight", "Kestrel routing", "2026-03-12T15:00:00", [
        "Kestrel Freight notes, the routing pilot starts in April.",
        "Oh, Orchard thing, the licence budget is now four hundred and fifty thousand pounds after all.",
        "Back to Kestrel, the depot count is eleven.",
    ]),
    ("linden:1", "linden-care", "Linden kickoff", "2026-02-04T09:30:00", [
        "Linden Care Home kickoff notes.",
        "The plan on the table is to reopen the whole east wing with the new lifts on the 1st of June.",
        "The residents' families meet on the 3rd of March.",
        "We have twelve years of inspection reports to read.",
    ]),
    ("linden:2", "linden-care", "Linden update", "2026-03-16T09:30:00", [
        "Linden update.",
        "The lift supplier is late, so the new lifts are now pencilled in for Monday the 14th of September.",
        "The inspection budget is now ninety thousand.",
    ]),
    ("quarry:1", "quarry-theatre", "Quarry kickoff", "2026-02-05T18:00:00", [
        "Quarry Theatre kickoff notes.",
        "They want to raise eighty-five thousand pounds in total for the garden.",
        "Volunteers run the bar on six nights.",
    ]),
    ("quarry:2", "quarry-theatre", "Quarry update", "2026-03-12T18:00:00", [
        "Quarry Theatre update.",
        "The builders found asbestos, so the appeal is now going for one hundred and ten thousand.",
        "The bar now opens on seven nights.",
    ]),
    ("harbour:1", "harbour-dental", "Harbour kickoff", "2026-02-03T11:00:00", [
        "Harbour Dental kickoff notes.",
        "Our practice manager is Tamara Lindqvist.",
    ]),
    ("harbour:2", "harbour-dental", "Harbour update", "2026-03-11T11:00:00", [
        "Harbour Dental update.",
        "Tamara wants to move the rota over to Priya Shah from May.",
    ]),
    ("brook:1", "brook-festival", "Brook kickoff", "2026-02-06T10:00:00", [
        "Brook Festival kickoff notes.",
        "The festival chair is going to be Ruth Hale.",
    ]),
    ("brook:2", "brook-festival", "Brook update", "2026-03-13T10:00:00", [
        "Brook Festival update.",
        "The committee picked Dana Okafor over Ruth for chair, mostly on experience.",
        "We went over the running order with Ola Berg.",
    ]),
    ("fern:1", "fern-bakery", "Fern kickoff", "2026-02-09T10:00:00", [
        "Fern Bakery kickoff notes, I came from Leeds this morning.",
        "Their flour comes from Millstone Grain, a regional mill.",
    ]),
    ("fern:2", "fern-bakery", "Fern update", "2026-03-16T10:00:00", [
        "Fern Bakery update.",
        "They've gone with Oakfield Mills over Millstone for the flour.",
    ]),
    ("wren:1", "wren-museum", "Wren kickoff", "2026-02-10T10:00:00", [
        "Wren Museum kickoff notes.",
        "The collections manager is Iris Bell.",
    ]),
    ("wren:2", "wren-museum", "Wren update", "2026-03-17T10:00:00", [
        "Wren Museum update.",
        "Iris is stepping down as collections manager, and Omar Reyes takes over.",
    ]),
    ("teal:1", "teal-payroll", "Teal kickoff", "2026-02-11T10:00:00", [
        "Teal Payroll kickoff notes.",
        "The payroll go-live is planned for the first of October.",
        "The supplier tender documents go out to the council on the 12th of May.",
    ]),
    ("birke:1", "birke-hotel", "Birke Auftakt", "2026-02-12T10:00:00", [
        "Notizen zum Auftakt im Hotel Birke.",
        "Das Angebot für die Fenster liegt bei hundertzwanzigtausend Euro.",
    ]),
    ("birke:2", "birke-hotel", "Birke Update", "2026-03-12T10:00:00", [
        "Kurzes Update zum Hotel Birke.",
        "Die Fassade kriegt neue Dämmung, das Angebot liegt bei vierzigtausend Euro.",
    ]),
    ("teal:2", "teal-payroll", "Teal update", "2026-05-20T10:00:00", [
        "Teal Payroll update.",
        "The payroll go-live is the 4th of January 2027, nobody wants to switch payroll mid-year.",
        "The supplier tender documents went out to the council on the 8th, four days early.",
    ]),
    ("heron:1", "heron-observatory", "Heron kickoff", "2026-02-16T10:00:00", [
        "Heron Observatory kickoff notes.",
        "The telescope dome budget is ninety thousand pounds.",
    ]),
    ("heron:2", "heron-observatory", "Heron update", "2026-03-16T10:00:00", [
        "Heron Observatory update.",
        "The telescope dome budget is a hundred and ten thousand with the council's grant.",
    ]),
    ("alder:1", "alder-school", "Alder kickoff", "2026-02-17T10:00:00", [
        "Alder School kickoff notes.",
        "They want to raise forty thousand pounds for the new library.",
    ]),
    ("alder:2", "alder-school", "Alder update", "2026-03-18T10:00:00", [
        "Alder School update.",
        "The roof needs work too, so the appeal is now going for fifty-five thousand pounds.",
    ]),
    ("yew:1", "yew-hall", "Yew kickoff", "2026-02-18T10:00:00", [
        "Yew Hall kickoff notes.",
        "Amplified music has to stop at eleven at night, that's the licence.",
    ]),
    ("yew:2", "yew-hall", "Yew update", "2026-03-19T10:00:00", [
        "Yew Hall update.",
        "The council has pulled the amplified music back, so the bands now finish at ten at night.",
    ]),
]  # fmt: skip


@dataclass
class Consolidated:
    facts: list[Fact]  # every fact, restatements too
    about_orchard: set[int]  # the ids `list_facts` gives for the Orchard project
    library: Library

    def one(self, value: str) -> Fact:
        [found] = self.all(value)
        return found

    def all(self, value: str) -> list[Fact]:
        return sorted((f for f in self.facts if f.value == value), key=lambda f: f.spoken_at)


@pytest.fixture(scope="module")
def notes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Consolidated]:
    require_models()
    root = tmp_path_factory.mktemp("facts-library")
    library = Library(DataDir(root, MODELS_DIR))
    assert {r.status for r in import_corpus(library, write_corpus(root / "notes.jsonl", NOTES))} == {
        "imported"
    }
    consolidate(library, use_model=False)
    orchard = get_project(library.store, "orchard-clinic")
    yield Consolidated(
        list_facts(library.store, include_restatements=True),
        {f.id for f in list_facts(library.store, project_id=orchard.id)},
        library,
    )
    library.close()


def test_an_amount_said_in_words_is_superseded_by_one_said_as_shorthand(notes: Consolidated) -> None:
    words, shorthand = notes.one("four hundred and twenty thousand pounds"), notes.one("380k")
    assert (words.value_kind, words.value_norm) == ("amount", "420000 GBP")
    assert shorthand.value_norm == "380000" and shorthand.changed
    assert words.superseded_by == shorthand.id and words.valid_until == shorthand.spoken_at


def test_a_date_said_relatively_supersedes_the_earlier_date(notes: Consolidated) -> None:
    old, new = notes.one("Friday the 20th of March"), notes.one("next Thursday")
    assert new.value_norm == "2026-03-19"  # the Thursday of the week after the Tuesday it was said
    assert old.superseded_by == new.id
    old, new = notes.one("am zwanzigsten Februar"), notes.one("Ende nächster Woche")
    assert (old.value_norm, new.value_norm) == ("2026-02-20", "2026-03-13")  # said on Monday 2 March
    assert old.superseded_by == new.id


def test_a_date_said_again_beside_the_new_one_as_what_goes_is_superseded(notes: Consolidated) -> None:
    # "the first one" says nothing the later sentence's words share; the earlier day said again
    # beside the new one, with "off", says which fact the change replaces.
    old, new = notes.one("Tuesday the 14th of April at ten"), notes.one("Wednesday the 22nd of April")
    assert old.superseded_by == new.id


def test_a_tool_switched_from_one_to_another(notes: Consolidated) -> None:
    assert notes.one("Quillpoint").superseded_by == notes.one("Notifyly").id


def test_a_name_chosen_over_the_earlier_one_supersedes_it(notes: Consolidated) -> None:
    old, new = notes.one("Ruth Hale"), notes.one("Dana Okafor")
    assert old.superseded_by == new.id and new.changed
    # "went over" the running order chooses nothing: no change, nothing replaced
    assert all(not f.changed for f in notes.all("Ola Berg"))


def test_where_a_thing_comes_from_is_a_fact_a_later_choice_replaces(notes: Consolidated) -> None:
    # "comes from" names who supplies it; a person coming from a place is no fact
    assert notes.one("Millstone Grain").superseded_by == notes.one("Oakfield Mills").id
    assert not notes.all("Leeds")


def test_the_one_who_takes_over_supersedes_the_one_who_steps_down(notes: Consolidated) -> None:
    assert notes.one("Iris Bell").superseded_by == notes.one("Omar Reyes").id


def test_a_change_whose_sentence_says_the_same_as_an_earlier_one_supersedes_it(notes: Consolidated) -> None:
    # the attributes' words share nothing ("plan table reopen ..." and "lifts pencilled"); the two
    # sentences, read by MiniLM, are about the same thing, and the other date of the project is not
    reopening, lifts = notes.one("the 1st of June"), notes.one("Monday the 14th of September")
    assert lifts.changed and reopening.superseded_by == lifts.id
    assert notes.one("the 3rd of March").current


def test_a_number_ten_times_another_is_another_quantity(notes: Consolidated) -> None:
    # both about inspections, the later said as a change: 12 years is not a budget of 90,000
    years, budget = notes.one("twelve"), notes.one("ninety thousand")
    assert budget.changed and years.current and years.superseded_by is None


def test_a_changed_sum_replaces_the_only_earlier_sum_of_its_size(notes: Consolidated) -> None:
    # "in total" and "the appeal" share no word: 110,000 is the one earlier figure of its size
    target, appeal = notes.one("eighty-five thousand pounds"), notes.one("one hundred and ten thousand")
    assert appeal.changed and target.superseded_by == appeal.id


def test_a_person_who_moves_something_is_not_what_moves(notes: Consolidated) -> None:
    # Tamara is named where a change is said, as the one who makes it: she is still the practice
    # manager (the parse says what "move" is said of: the rota, not her)
    manager, rota = notes.one("Tamara Lindqvist"), notes.one("Priya Shah")
    assert rota.changed and rota.value_kind == manager.value_kind == "person"
    assert manager.superseded_by is None and manager.current


def test_a_german_change_supersedes_and_a_german_stay_restates(notes: Consolidated) -> None:
    old, new = notes.one("45.000 Euro"), notes.one("zweiundfünfzigtausend Euro")
    assert new.value_norm == "52000 EUR" and old.superseded_by == new.id
    first, again = notes.one("am dritten Juni"), notes.one("03.06.2026")
    assert first.value_norm == again.value_norm == "2026-06-03"
    assert again.restates == first.id
    # the date said twice is replaced once, and both sayings with it: an answer quoting either
    # sentence shows the new date
    moved = notes.one("am ersten Juli")
    assert first.superseded_by == again.superseded_by == moved.id
    assert again.valid_until == moved.spoken_at


def test_saying_the_same_value_again_is_a_restatement(notes: Consolidated) -> None:
    first, again = notes.all("Hannah Lowe")
    assert again.restates == first.id and first.superseded_by is None and first.current
    budget, same = notes.one("fifteen thousand pounds"), notes.one("15k")  # the same, said differently
    assert same.restates == budget.id and budget.superseded_by is None and budget.current
    # the training budget never took part in the licence budget's changes
    assert budget.id not in {f.superseded_by for f in notes.facts}


def test_an_aside_in_another_projects_note_supersedes_by_subject(notes: Consolidated) -> None:
    aside = notes.one("four hundred and fifty thousand pounds")
    assert aside.project == "kestrel-freight" and aside.subject == "orchard-clinic"  # filed there, about this
    assert notes.one("380k").superseded_by == aside.id
    assert aside.id in notes.about_orchard  # listed with the project it is about


def test_hedged_sentences_give_no_stated_fact(notes: Consolidated) -> None:
    hedged = ("If the trust", "I think", "but that's only", "vendor demo", "not on the 9th", "Vielleicht")
    assert [f.quote for f in notes.facts if f.kind == "stated" and any(h in f.quote for h in hedged)] == []


def test_a_value_said_plainly_later_supersedes_the_same_thing_said_before(notes: Consolidated) -> None:
    # not said as a change ("is", no "now", "moved"): the same attribute's later value is current
    planned, later = notes.one("the first of October"), notes.one("the 4th of January 2027")
    assert not later.changed and planned.superseded_by == later.id


def test_a_sum_said_plainly_without_its_currency_supersedes_the_amount(notes: Consolidated) -> None:
    # "a hundred and ten thousand" names no currency: a bare number of the same budget
    earlier, later = notes.one("ninety thousand pounds"), notes.one("hundred and ten thousand")
    assert earlier.superseded_by == later.id


def test_a_planned_date_met_early_is_not_superseded(notes: Consolidated) -> None:
    # "went out on the 8th, four days early" says what happened, not a new date for the tender
    assert notes.one("the 12th of May").superseded_by is None


def test_a_german_value_said_plainly_supersedes_nothing(notes: Consolidated) -> None:
    # German attributes are the words near the value ("das Angebot liegt bei"), not what a parse
    # says it is of: the insulation's offer does not replace the windows'
    assert notes.one("hundertzwanzigtausend Euro").superseded_by is None


def test_an_answer_quoting_a_wished_value_leads_with_the_figure_that_replaced_it(notes: Consolidated) -> None:
    # "They want to raise forty thousand" is a wish (inferred), later replaced by a stated figure:
    # an answer that quotes the wish shows the figure that holds now first
    wish, figure = notes.one("forty thousand pounds"), notes.one("fifty-five thousand pounds")
    assert wish.kind == "inferred" and wish.superseded_by == figure.id
    question = "How much is Alder School trying to raise for the library?"
    answer = ask(notes.library, AskRequest(question, as_of="2026-03-20T09:00:00", no_llm=True))
    stated = [c.text for c in answer.claims if c.kind == "stated"]
    assert stated and "fifty-five thousand" in stated[0], stated


def test_a_time_of_day_said_alone_is_a_fact_a_later_change_supersedes(notes: Consolidated) -> None:
    old, new = notes.one("at eleven at night"), notes.one("at ten at night")
    assert (old.value_kind, old.value_norm, new.value_norm) == ("time", "23:00", "22:00")
    assert old.superseded_by == new.id
