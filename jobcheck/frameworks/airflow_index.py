"""Which calls Airflow's call-site index keeps: shared by the scan (`airflow`) and by `recheck`,
which must compare exactly what the scan reads of an edited body, and should not import the
whole framework module to do it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..summary import Event, ModuleSummary


def relevant_tops(tops: set[str], mod: ModuleSummary) -> set[str]:
    """The top-level names a call in `mod` must start with to be indexed (`tops`: the analysed
    modules'). Only calls that can name an operator matter: Airflow's own, or the tree's (a
    subclass, a factory), also when imported as from a folder on sys.path."""
    return tops | {"airflow"} | {n.partition(".")[0] for n in mod.imported if n.partition(".")[0] not in tops}


def is_relevant(ev: Event, relevant: set[str]) -> bool:
    """Is this event a call the index keeps? All the scan reads of a body is these calls and,
    around them, the body's regions (`recheck` relies on that)."""
    return ev.kind == "call" and bool(ev.name) and ev.name.partition(".")[0].partition("(")[0] in relevant
