"""Django's model signals, sent by the code that saves or deletes a row: a job that saves an
`Incursion` (`Incursion.objects.create(...)`, `inc.save()`) runs, in its own process, every
receiver connected for that model (`@receiver(post_save, sender=Incursion)`,
`post_save.connect(f, sender=Incursion)`). Those receivers are jobs too, of the saving job's kind
and triggers. Only receivers given a `sender`: one for every model (an audit log) runs wherever
anything is saved, and is nobody's job in particular. `bulk_create` and `update` send no signal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .jobs import JobSite
from .names import origin

if TYPE_CHECKING:
    from .project import Project

_SIGNALS = "django.db.models.signals."
# What each model method sends.
_SENDS = {
    **{m: ("pre_save", "post_save") for m in ("save", "create", "get_or_create", "update_or_create")},
    "delete": ("pre_delete", "post_delete"),
}


def receivers_by_model(project: Project) -> dict[tuple[str, str], list[str]]:
    """{(signal's short name, model class qualname): receivers} of the application's receivers
    of Django's model signals connected with a `sender` (`Project.django_receivers`)."""
    def compute() -> dict:
        out: dict[tuple[str, str], list[str]] = {}
        for signal, sender, module, receiver in project.django_receivers:
            model = _model(project, module, sender)
            if signal.startswith(_SIGNALS) and model and project.the_applications(project.function_module[receiver]):
                out.setdefault((signal[len(_SIGNALS):], model), []).append(receiver)
        return out
    return project.once("model signal receivers", compute)


def add_model_signal_receivers(project: Project, sites: dict[str, JobSite]) -> None:
    """The receivers of the models each job saves or deletes, itself or two calls down, added as
    jobs of its kind and triggers."""
    receivers = receivers_by_model(project)
    if not receivers:
        return
    for sender in list(sites.values()):
        fn = project.functions.get(sender.function)
        for caller in project.within_calls(fn, 2) if fn is not None else ():
            for ev in caller.events:
                sends = _SENDS.get(ev.attr or "") if ev.kind == "call" else None
                model = _saved_model(project, ev.name or "") if sends else None
                for receiver in (r for signal in sends or () for r in receivers.get((signal, model), ())):
                    if receiver not in sites:
                        sites[receiver] = JobSite(
                            function=receiver, framework=sender.framework, kind=sender.kind,
                            path=project.function_module[receiver].path, anchor=project.anchor_of(project.functions[receiver]),
                            display=receiver, doc_owner=receiver, triggers=set(sender.triggers))


def _model(project: Project, module, value) -> str | None:
    """The model class a `sender=` names, if it is one of the application's."""
    if not value or value[0] not in ("name", "ref"):
        return None
    dotted = value[2] if value[0] == "name" and len(value) > 2 else value[1]
    found = project.canonical(origin(project, module, dotted) or dotted)
    return found if found in project.classes else None


def _saved_model(project: Project, name: str) -> str | None:
    """The model whose row a call saves or deletes: `Incursion.objects.create`,
    `Incursion.objects.get().save`, `Incursion(...).save`."""
    base = name.rpartition(".")[0]
    model = base.partition(".objects")[0] if ".objects" in base else base.removesuffix("()")
    return model if model in project.classes else None
