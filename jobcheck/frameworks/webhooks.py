"""Webhook receivers: a request handler of the application's own that takes a provider's event
(Stripe, Telegram, GitHub, a payment gateway) and does the work the event announces. The provider
sends the event again until it gets a 2xx (Stripe for three days, GitHub, Telegram and Paystack
likewise), so a receiver that fails after doing part of the work runs again from the start: the
same at-least-once delivery as a queue's, with the provider as the queue.

A receiver says what it is by its name or its route, and must be a request handler:

- a class whose name has the word `webhook` (`StripeWebhook`, `StripeWebhookView`) built on a
  view of a web framework (Django's `View`, DRF's `APIView`, Starlette's `HTTPEndpoint`, Flask's
  `MethodView`...): its `post` (and `put`) handler is the job;
- a function whose name has the word (`telegram_webhook`, `handle_webhook`), or whose route's
  path does (`@router.post("/webhooks/stripe")`), that is a view: decorated by a web framework
  (a route, `@csrf_exempt`, `@api_view`), or a function taking the `request` first;
- a handler a routing call gives a path that says so (`Route("/webhook/{token}", self._deliver,
  methods=["POST"])`, `path("stripe/webhook/", StripeEvents.as_view())`, `add_url_rule`), unless
  the route only reads; a function such a route gives with no `methods=` (Django's `path`) only
  when it takes a provider's POST (`@csrf_exempt`) or is named for a webhook, not a page a person
  signs in to see (`@login_required`: a settings page about webhooks).

A function named for sending webhooks (`send_webhook`, `deliver_webhooks`, `register_webhook`) is
no receiver, nor is anything in tests. Nothing here reads a retry policy: how often and how long
a provider redelivers is the provider's, so the rules that need a count stay quiet.
"""

from __future__ import annotations

import re

from ..analysis.jobs import JobSite
from ..analysis.names import canonical_in, target
from ..analysis.program import calls_named, deco_name, in_tests
from ..analysis.project import Project
from ..analysis.values import lit
from ..analysis.words import name_words
from .base import job_from_function

# Web frameworks whose decorators make a function a request handler, and whose classes are views.
WEB_FRAMEWORKS = ("django.views.", "django.http.", "rest_framework.", "ninja.", "fastapi.", "starlette.",
                  "flask.", "flask_restful.", "flask_smorest.", "quart.", "litestar.", "sanic.", "aiohttp.web",
                  "tornado.web.", "falcon.", "bottle.", "pyramid.view.", "channels.")
_WEBHOOK = frozenset({"webhook", "webhooks"})
# Words of a function that sends, registers or manages webhooks rather than receiving one.
_OUTBOUND = frozenset({"send", "sends", "sending", "deliver", "delivers", "delivery", "dispatch", "fire", "emit",
                       "post", "notify", "trigger", "outbound", "outgoing", "register", "create", "delete",
                       "update", "list", "get", "setup", "set", "subscribe", "unsubscribe", "test", "retry",
                       # managing the application's own webhooks (`regenerate_webhook_secret`)
                       "regenerate", "rotate", "enable", "disable", "pause", "resume", "secret", "edit"})
_HANDLERS = ("post", "put")


class Webhooks:
    name = "webhook"

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites = []
        for module in project.modules.values():
            if in_tests(module) or not project.the_applications(module):
                continue
            for cls in module.classes.values():
                if not _WEBHOOK.intersection(name_words(cls.name)) or not _a_view(project, cls):
                    continue
                for method in _HANDLERS:
                    fn = project.functions.get(f"{cls.qualname}.{method}")
                    if fn is not None:
                        sites.append(_site(project, fn))
            for fn in module.functions.values():
                if fn.class_qualname is None and _receives(project, fn):
                    sites.append(_site(project, fn))
        sites.extend(_site(project, fn) for fn in _routed_by_call(project))
        return sites

    def find_registrations(self, project: Project) -> list:
        return []


def _site(project: Project, fn) -> JobSite:
    return job_from_function(project, fn, "webhook", "task", triggers={"enqueue"})


def _a_view(project: Project, cls) -> bool:
    return any(base.startswith(WEB_FRAMEWORKS) for base in project.class_bases(cls))


def _receives(project: Project, fn) -> bool:
    """A function view or route that receives a webhook: named for one (and not for sending), or
    routed at a path that says so."""
    routes = [d for d in fn.decorators if (project.canonical(deco_name(d[0])) or "").startswith(WEB_FRAMEWORKS)]
    if any(_routed_to_a_webhook(d[0]) for d in routes):
        return True
    words = set(name_words(fn.name))
    if not _WEBHOOK.intersection(words) or _OUTBOUND.intersection(words):
        return False
    return bool(routes) or fn.params[:1] in (["request"], ["req"])


# Calls that route a path to a handler: Starlette's `Route(path, endpoint)`, Flask's
# `add_url_rule(path, view_func=...)`, FastAPI's `add_api_route`, aiohttp's `router.add_post`,
# Django's `path(route, view)`.
_ROUTING_CALLS = ("Route", "add_url_rule", "add_api_route", "add_route", "add_post", "add_put", "path", "re_path")
_ENDPOINT_KEYWORDS = ("endpoint", "view_func", "view", "handler")


def _routed_by_call(project: Project) -> list:
    """The handlers a routing call gives a path that says webhook (`Route("/webhook/{token}",
    self._webhook, methods=["POST"])`, `path("stripe/webhook/", StripeWebhook.as_view())`): of a
    view class, its `post` and `put`. A route that only reads (`methods=["GET"]`) receives nothing."""
    out = []
    for site in calls_named(project, _ROUTING_CALLS):
        ev, module = site.event, site.module
        if in_tests(module) or not project.the_applications(module) or not ev.args:
            continue
        if not _says_webhook(lit(ev.args[0])) or not _receives_by_method(ev.kwargs):
            continue
        endpoint = ev.args[1] if len(ev.args) > 1 else next(
            (ev.kwargs[k] for k in _ENDPOINT_KEYWORDS if k in ev.kwargs), None)
        if endpoint and endpoint[0] == "call" and (endpoint[1] or "").endswith(".as_view"):
            endpoint = ["name", endpoint[1][: -len(".as_view")]]
        name = target(project, module, endpoint)
        fn = project.functions.get(name or "")
        if fn is not None:
            if "methods" in ev.kwargs or _takes_posts(project, fn):
                out.append(fn)
            continue
        cls = project.classes.get(canonical_in(project, module, endpoint[1]) or "") \
            if endpoint and endpoint[0] == "name" else None
        out.extend(fn for method in _HANDLERS if cls is not None
                   and (fn := project.functions.get(f"{cls.qualname}.{method}")) is not None)
    return out


# Decorators of a function view that takes a provider's POST (no CSRF token, no session), and of
# one a person signs in to see (`@login_required`: a settings page about webhooks).
_TAKES_POSTS = frozenset({"csrf_exempt", "require_POST", "require_http_methods", "api_view"})
_SIGNED_IN = frozenset({"login_required", "permission_required", "staff_member_required"})


def _takes_posts(project: Project, fn) -> bool:
    """A function a route with no `methods=` gives a path (Django's `path("hooks/webhook", view)`):
    a receiver when its decorators say it takes a provider's POST, or its name says webhook; not a
    page a person signs in to see."""
    decorators = {(deco_name(d[0]) or "").rpartition(".")[2] for d in fn.decorators}
    if decorators & _SIGNED_IN:
        return False
    return bool(decorators & _TAKES_POSTS) or bool(_WEBHOOK.intersection(name_words(fn.name)))


def _routed_to_a_webhook(value: list) -> bool:
    """`@router.post("/webhooks/stripe")`, `@app.route("/telegram/webhook", methods=["POST"])`; not
    a route that reads or deletes (`@router.get(...)`, `methods=["GET"]`)."""
    if not value or value[0] != "call" or (value[1] or "").rpartition(".")[2] in _READ_ROUTES \
            or not _receives_by_method(value[3]):
        return False
    path = lit(value[2][0]) if value[2] else None
    if not isinstance(path, str):
        path = lit(value[3].get("path")) if value[3].get("path") else None
    return _says_webhook(path)


# Route decorators of the methods that only read or remove (FastAPI's `router.get`, aiohttp's `get`).
_READ_ROUTES = frozenset({"get", "head", "options", "delete"})
_PATH_PARAMETER = re.compile(r"\{[^}]*\}|<[^>]*>")


def _says_webhook(path) -> bool:
    """A route's path that says webhook, beside its parameters (`/{webhook_id}/deliveries` is the
    management of one: the word is a parameter's name)."""
    return isinstance(path, str) and "webhook" in _PATH_PARAMETER.sub("", path).lower()


def _receives_by_method(kwargs: dict) -> bool:
    """Unless its `methods=` lists neither POST nor PUT."""
    methods = lit(kwargs.get("methods"))
    return not isinstance(methods, tuple) or bool({str(m).upper() for m in methods} & {"POST", "PUT"})


FRAMEWORK = Webhooks()
