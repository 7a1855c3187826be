"""Widgets the pages share: passage cards, the answer view, player, record bar, sidebar, notices,
the jobs line, consolidation cards, highlighting and icons."""
