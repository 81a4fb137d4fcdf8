"""The catalogs, as data: which resolved names are effects, clocks, randomness, transactions.

Names are the resolved dotted names of `summary`: an instance is written with `()`
(`smtplib.SMTP().sendmail`), a boto3 client with its service (`boto3.client(ses).send_email`).
`*` matches any run of characters. Users extend the effect kinds and guards in
`[tool.jobcheck.effects]` / `[tool.jobcheck.guards]`.

HTTP: POST and PATCH are effects. PUT and DELETE are idempotent by HTTP semantics (RFC 9110
§9.2.2): repeating one leaves the resource as one request would, so they are catalogued as
`http-idempotent`, listed in the job inventory, and not reported by the retry rules.
"""

from __future__ import annotations

# Kinds whose repetition is visible outside the process: the retry rules care about these.
EXTERNAL_KINDS = ("email", "sms", "http", "payment", "publish", "enqueue")

_OPENSTACK_SERVICES = ("network", "compute", "block_storage", "volume", "load_balancer")
_OPENSTACK_CONNECTIONS = ("connection.Connection()", "connect()")
_OPENSTACK_CLOUD_CREATES = ("server", "port", "volume", "floating_ip", "network", "subnet", "router", "load_balancer")

EFFECTS: dict[str, tuple[str, ...]] = {
    "email": (
        "smtplib.SMTP().sendmail",
        "smtplib.SMTP().send_message",
        "smtplib.SMTP_SSL().sendmail",
        "smtplib.SMTP_SSL().send_message",
        "smtplib.LMTP().sendmail",
        "django.core.mail.send_mail",
        "django.core.mail.send_mass_mail",
        "django.core.mail.mail_admins",
        "django.core.mail.mail_managers",
        "django.core.mail.EmailMessage().send",
        "django.core.mail.EmailMultiAlternatives().send",
        "django.core.mail.message.EmailMessage().send",
        "django.core.mail.message.EmailMultiAlternatives().send",
        "django.core.mail.get_connection().send_messages",
        "django.core.mail.*.send_messages",
        "templated_email.send_templated_mail",
        "flask_mail.Mail().send",
        "flask_mail.Mail().send_message",
        "flask_mail.Message().send",
        "sendgrid.SendGridAPIClient().send",
        "sendgrid.SendGridAPIClient().client.mail.send.post",
        "sendgrid.sendgrid.SendGridAPIClient().send",
        "*.client(ses).send_email",
        "*.client(ses).send_raw_email",
        "*.client(ses).send_templated_email",
        "*.client(ses).send_bulk_templated_email",
        "*.client(sesv2).send_email",
        "*.client(sesv2).send_bulk_email",
        "mailchimp_transactional.Client().messages.send",
        "postmarker.core.PostmarkClient().emails.send",
        "yagmail.SMTP().send",
        "mailjet_rest.Client().send.create",
        "resend.Emails.send",
        "sib_api_v3_sdk.TransactionalEmailsApi().send_transac_email",
        "brevo_python.TransactionalEmailsApi().send_transac_email",
    ),
    "sms": (
        "twilio.rest.Client().messages.create",
        "twilio.rest.Client().calls.create",
        "twilio.rest.Client().api.account.messages.create",
        "vonage.Client().sms.send_message",
        "nexmo.Client().send_message",
        "*.client(sns).publish",
        "*.client(pinpoint).send_messages",
        "plivo.RestClient().messages.create",
        "messagebird.Client().message_create",
    ),
    "publish": (
        "slack_sdk.WebClient().chat_postMessage",
        "slack_sdk.web.WebClient().chat_postMessage",
        "slack_sdk.web.client.WebClient().chat_postMessage",
        "slack_sdk.web.async_client.AsyncWebClient().chat_postMessage",
        "slack_sdk.WebClient().files_upload*",
        "slack_sdk.webhook.WebhookClient().send",
        "slack.WebClient().chat_postMessage",
        "*.client(sqs).send_message",
        "*.client(sqs).send_message_batch",
        "*.client(sns).publish_batch",
        "*.client(events).put_events",
        "*.client(kinesis).put_record",
        "*.client(kinesis).put_records",
        "kafka.KafkaProducer().send",
        "confluent_kafka.Producer().produce",
        "aiokafka.AIOKafkaProducer().send",
        "aiokafka.AIOKafkaProducer().send_and_wait",
        "pika.*basic_publish",
        "aio_pika.*.publish",
        "kombu.Producer().publish",
        "firebase_admin.messaging.send",
        "firebase_admin.messaging.send_all",
        "firebase_admin.messaging.send_each",
        "firebase_admin.messaging.send_multicast",
        "firebase_admin.messaging.send_each_for_multicast",
        "pywebpush.webpush",
        "google.cloud.pubsub_v1.PublisherClient().publish",
        "redis.Redis().publish",
        "redis.StrictRedis().publish",
        # Chat and push notifications: each call posts one more message to the people reading.
        "discord_webhook.DiscordWebhook().execute",
        "discord_webhook.AsyncDiscordWebhook().execute",
        "discord_webhook.webhook.DiscordWebhook().execute",
        "dhooks_lite.Webhook().execute",
        "dhooks_lite.client.Webhook().execute",
        "dhooks.Webhook().send",
        "discord.Webhook.from_url().send",
        "discord.SyncWebhook.from_url().send",
        "discord.Webhook.partial().send",
        "discord.SyncWebhook.partial().send",
        "telegram.Bot().send_*",
        "telegram.Bot().forward_message",
        "telebot.TeleBot().send_*",
        "aiogram.Bot().send_*",
        "apprise.Apprise().notify",
        "apprise.Apprise().async_notify",
        "pymsteams.connectorcard().send",
        "pymsteams.async_connectorcard().send",
        "zulip.Client().send_message",
        "mattermostdriver.Driver().posts.create_post",
        "nio.AsyncClient().room_send",
        "pushover.Client().send_message",
        "exponent_server_sdk.PushClient().publish",
        "exponent_server_sdk.PushClient().publish_multiple",
        "pyfcm.FCMNotification().notify*",
        "discordproxy.client.DiscordClient().create_direct_message",
        "discordproxy.client.DiscordClient().create_channel_message",
        "pusher.Pusher().trigger",
        "pusher.Pusher().trigger_batch",
    ),
    "http": (
        "requests.post",
        "requests.patch",
        "requests.api.post",
        "requests.api.patch",
        "requests.Session().post",
        "requests.Session().patch",
        "requests.sessions.Session().post",
        "requests.session().post",
        "httpx.post",
        "httpx.patch",
        "httpx.Client().post",
        "httpx.Client().patch",
        "httpx.AsyncClient().post",
        "httpx.AsyncClient().patch",
        "aiohttp.ClientSession().post",
        "aiohttp.ClientSession().patch",
        "urllib3.PoolManager().request:POST",
        "urllib3.PoolManager().request:PATCH",
        "urllib3.PoolManager().urlopen:POST",
        "urllib3.PoolManager().urlopen:PATCH",
        "urllib3.PoolManager().request_encode_body:POST",
        "urllib3.PoolManager().request_encode_body:PATCH",
        "urllib3.ProxyManager().request:POST",
        "urllib3.ProxyManager().request:PATCH",
        "urllib3.ProxyManager().urlopen:POST",
        "urllib3.ProxyManager().urlopen:PATCH",
        "urllib3.ProxyManager().request_encode_body:POST",
        "urllib3.ProxyManager().request_encode_body:PATCH",
        "urllib3.HTTPConnectionPool().request:POST",
        "urllib3.HTTPConnectionPool().request:PATCH",
        "urllib3.HTTPConnectionPool().urlopen:POST",
        "urllib3.HTTPConnectionPool().urlopen:PATCH",
        "urllib3.HTTPConnectionPool().request_encode_body:POST",
        "urllib3.HTTPConnectionPool().request_encode_body:PATCH",
        "urllib3.HTTPSConnectionPool().request:POST",
        "urllib3.HTTPSConnectionPool().request:PATCH",
        "urllib3.HTTPSConnectionPool().urlopen:POST",
        "urllib3.HTTPSConnectionPool().urlopen:PATCH",
        "urllib3.HTTPSConnectionPool().request_encode_body:POST",
        "urllib3.HTTPSConnectionPool().request_encode_body:PATCH",
        "urllib3.poolmanager.PoolManager().request:POST",
        "urllib3.poolmanager.PoolManager().request:PATCH",
        "urllib3.poolmanager.PoolManager().urlopen:POST",
        "urllib3.poolmanager.PoolManager().urlopen:PATCH",
        "urllib3.poolmanager.PoolManager().request_encode_body:POST",
        "urllib3.poolmanager.PoolManager().request_encode_body:PATCH",
        "urllib3.connectionpool.HTTPConnectionPool().request:POST",
        "urllib3.connectionpool.HTTPConnectionPool().request:PATCH",
        "urllib3.connectionpool.HTTPConnectionPool().urlopen:POST",
        "urllib3.connectionpool.HTTPConnectionPool().urlopen:PATCH",
        "urllib3.connectionpool.HTTPConnectionPool().request_encode_body:POST",
        "urllib3.connectionpool.HTTPConnectionPool().request_encode_body:PATCH",
        "urllib3.connectionpool.HTTPSConnectionPool().request:POST",
        "urllib3.connectionpool.HTTPSConnectionPool().request:PATCH",
        "urllib3.connectionpool.HTTPSConnectionPool().urlopen:POST",
        "urllib3.connectionpool.HTTPSConnectionPool().urlopen:PATCH",
        "urllib3.connectionpool.HTTPSConnectionPool().request_encode_body:POST",
        "urllib3.connectionpool.HTTPSConnectionPool().request_encode_body:PATCH",
        "urllib3.request:POST",
        "urllib3.request:PATCH",
        "requests.request:POST",
        "requests.request:PATCH",
        "requests.Session().request:POST",
        "requests.Session().request:PATCH",
        "httpx.request:POST",
        "httpx.Client().request:POST",
        "httpx.AsyncClient().request:POST",
        "aiohttp.ClientSession().request:POST",
        "aiohttp.ClientSession().request:PATCH",
        "http.client.HTTPConnection().request:POST",
        "http.client.HTTPConnection().request:PATCH",
        "http.client.HTTPSConnection().request:POST",
        "http.client.HTTPSConnection().request:PATCH",
        # openstacksdk: `create_*` of the network, compute, block-storage and load-balancer
        # proxies POSTs a new resource (a port, a server, a volume), which those services do not
        # deduplicate (Swift's `create_object` is a PUT); `update_*`/`delete_*` are PUT/DELETE.
        *(f"openstack.{service}.*Proxy().create_*" for service in _OPENSTACK_SERVICES),
        *(f"openstack.{conn}.{service}.create_*" for conn in _OPENSTACK_CONNECTIONS for service in _OPENSTACK_SERVICES),
        *(f"openstack.{conn}.create_{what}" for conn in _OPENSTACK_CONNECTIONS for what in _OPENSTACK_CLOUD_CREATES),
    ),
    "http-idempotent": (
        "requests.put",
        "requests.delete",
        "requests.Session().put",
        "requests.Session().delete",
        "httpx.put",
        "httpx.delete",
        "httpx.Client().put",
        "httpx.Client().delete",
        "httpx.AsyncClient().put",
        "httpx.AsyncClient().delete",
        "aiohttp.ClientSession().put",
        "aiohttp.ClientSession().delete",
    ),
    "payment": (
        "stripe.*.create",
        "stripe.*.capture",
        "stripe.*.confirm",
        "stripe.*.pay",
        "stripe.*.refund",
        "stripe.*.create_*",
        "stripe.StripeClient().*.create",
        "stripe.StripeClient().*.capture",
        "stripe.StripeClient().*.confirm",
        "braintree.Transaction.sale",
        "braintree.Transaction.refund",
        "braintree.Transaction.submit_for_settlement",
        "braintree.Transaction.credit",
        "braintree.BraintreeGateway().transaction.sale",
        "braintree.BraintreeGateway().transaction.refund",
        "braintree.BraintreeGateway().transaction.submit_for_settlement",
        "paypalrestsdk.Payment().create",
        "paypalrestsdk.Payment().execute",
        "paypalrestsdk.Payout().create",
        "paypalrestsdk.Sale().refund",
        "Adyen.Adyen().payment.*",
        "Adyen.Adyen().checkout.*payments*",
        "square.client.Client().payments.create_payment",
        "square.client.Client().refunds.refund_payment",
        "square.Square().payments.create",
        "gocardless_pro.Client().payments.create",
        "gocardless_pro.Client().refunds.create",
        "razorpay.Client().payment.capture",
        "razorpay.Client().payment.refund",
        "mollie.api.client.Client().payments.create",
    ),
}

# The HTTP methods that write (the `:METHOD` entries above name these); a call that takes its
# method from a variable is read as a write unless a literal at a call site says otherwise.
HTTP_WRITE_METHODS = ("POST", "PATCH")
# The last path segments of a POST that moves one addressed resource to a state
# (`/certificates/{id}/revocations`, `/submissions/{id}/transition/`), compared lowercased with
# `-`, `_` and `.` removed. Repeating such a request finds the resource already in that state:
# the far end refuses or ignores it. Words that create something new (`refunds`, `messages`,
# `charges`, `send`) are not here.
TRANSITIONS = frozenset({
    "transition", "transitions", "state", "status",
    "approve", "approval", "approvals", "reject", "rejection", "decline",
    "revoke", "revocation", "revocations", "cancel", "cancellation", "cancellations",
    "activate", "activation", "activations", "deactivate", "deactivation", "deactivations",
    "enable", "disable", "suspend", "unsuspend", "resume", "pause",
    "close", "reopen", "archive", "unarchive", "lock", "unlock", "block", "unblock",
    "complete", "acknowledge", "ack", "confirm", "expire", "void", "retire", "restore",
})
# The last path segment of a POST that asks rather than writes (`/repositories/search/`,
# Elasticsearch's `/_search`, `/query`; an evaluation of what it is sent: `/v1/guard/analyze`,
# `/classify`, `/moderations`; a poll for news: OAuth's device flow `/device-code/poll`), compared as TRANSITIONS are: APIs take a query in a POST body when
# it is too large for a URL; repeating it changes nothing. (GraphQL's one endpoint also takes
# mutations: not here.)
QUERIES = frozenset({"search", "msearch", "query", "queries", "lookup", "find", "count", "poll",
                     "analyze", "analyse", "classify", "predict", "detect", "moderate", "moderations", "embeddings"})
# The first word of a function that asks (its POSTs carry a question: an embedding, a prediction, a
# status, a login), and words that say a function changes something whatever its first word.
ASKING_VERBS = frozenset({"get", "fetch", "query", "search", "lookup", "find", "embed", "encode", "classify",
                          "predict", "infer", "score", "rank", "tokenize", "estimate", "retrieve", "describe", "list",
                          "read",
                          # a login asks for a session or a token: nothing changes at the far end
                          "authenticate", "reauthenticate", "login", "relogin", "signin", "auth"})
MUTATING_WORDS = frozenset({"create", "add", "post", "send", "update", "set", "make", "submit", "register", "insert",
                            "write", "upload", "put", "save", "store", "publish", "notify", "charge", "pay", "delete",
                            "remove", "or", "and", "then", "run", "execute", "trigger", "start", "sync", "push", "apply",
                            "refund", "cancel", "invite", "reserve"})
# The words of a library method's name that say it changes something at the far end
# (`put_object`, `add_replication_rule`, `sendall`): MUTATING_WORDS less those that say only that
# something runs or is composed (`run`, `execute`, `start`, `make`, `and`), or that a process's own
# state or files change as often (`set`, `write`).
CHANGE_WORDS = frozenset({"create", "add", "post", "send", "sendall", "sendmail", "update", "submit", "register",
                          "insert", "upload", "put", "save", "store", "publish", "notify", "charge", "pay",
                          "delete", "remove", "push", "apply", "refund", "cancel", "invite", "reserve"})
# A library method the catalog does not name that moves money, by its name's words
# (`bank.initiate_payment(batch)`, `gateway.create_payout(...)`, `psp.charge(card, amount)`): a
# verb that makes it happen with a word for money moving, or the verb alone. Read at medium
# confidence, and only for a library's objects (the application's own methods are followed).
PAYMENT_VERBS = frozenset({"initiate", "create", "make", "send", "submit", "execute", "process", "capture", "do",
                           "perform", "place", "issue"})
PAYMENT_NOUNS = frozenset({"payment", "payments", "payout", "payouts", "charge", "charges", "disbursement",
                           "disbursements", "remittance", "transfer", "transfers", "refund", "refunds"})
PAYMENT_ALONE = frozenset({"charge", "pay", "payout", "refund", "disburse", "remit"})
_TORNADO_CLIENTS = (("httpclient", "AsyncHTTPClient"), ("httpclient", "HTTPClient"),
                    ("simple_httpclient", "SimpleAsyncHTTPClient"), ("curl_httpclient", "CurlAsyncHTTPClient"))
# Calls that send a request another call built: they do what that request's method says.
REQUEST_SENDERS = (
    "requests.Session().send",
    "requests.sessions.Session().send",
    "requests.session().send",
    "httpx.Client().send",
    "httpx.AsyncClient().send",
    "urllib.request.urlopen",
    "urllib.request.build_opener().open",
    "urllib.request.OpenerDirector().open",
    *(f"tornado.{module}.{client}().fetch" for module, client in _TORNADO_CLIENTS),
)
# What builds a request: the position and keyword of its method, and of its body where a body
# without a method makes it a POST (urllib); `urlopen(url, data)` takes a body itself.
REQUEST_BUILDERS = {
    "requests.Request": ((0, "method"), None),
    "requests.models.Request": ((0, "method"), None),
    "httpx.Request": ((0, "method"), None),
    "httpx.Client().build_request": ((0, "method"), None),
    "httpx.AsyncClient().build_request": ((0, "method"), None),
    "urllib.request.Request": ((5, "method"), (1, "data")),
    "urllib.request.urlopen": (None, (1, "data")),
    "urllib.request.build_opener().open": (None, (1, "data")),
    "urllib.request.OpenerDirector().open": (None, (1, "data")),
    # tornado: `HTTPRequest(url, method, ...)`, or `fetch(url, method="POST", body=...)` (its
    # method by keyword only; a GET otherwise)
    "tornado.httpclient.HTTPRequest": ((1, "method"), None),
    **{f"tornado.{module}.{client}().fetch": ((None, "method"), None) for module, client in _TORNADO_CLIENTS},
}

# Calls that make a job run again later: enqueueing is an effect a retry repeats.
ENQUEUE_METHODS = ("delay", "apply_async", "send", "send_with_options", "kiq", "schedule", "enqueue_task", "enqueue",
                   "aenqueue")
ENQUEUE_CALLS = (
    "celery.Celery().send_task",
    "celery.current_app.send_task",
    "rq.Queue().enqueue",
    "rq.Queue().enqueue_call",
    "rq.Queue().enqueue_in",
    "rq.Queue().enqueue_at",
    "rq.queue.Queue().enqueue",
    "django_q.tasks.async_task",
    "arq.connections.ArqRedis().enqueue_job",
    # An actor that is a parameter or an attribute (`def send_task(task: dramatiq.Actor, ...)`):
    # whichever it is, `send` enqueues it.
    "dramatiq.Actor().send",
    "dramatiq.Actor().send_with_options",
    "dramatiq.actor.Actor().send",
    "dramatiq.actor.Actor().send_with_options",
)

CLOCKS = (
    "datetime.datetime.now",
    "datetime.datetime.utcnow",
    "datetime.datetime.today",
    "datetime.date.today",
    "time.time",
    "time.time_ns",
    "time.monotonic",
    "time.monotonic_ns",
    "time.perf_counter",
    "time.localtime",
    "time.gmtime",
    "time.ctime",
    "time.strftime",
    "time.asctime",
    "django.utils.timezone.now",
    "django.utils.timezone.localtime",
    "django.utils.timezone.localdate",
    "arrow.now",
    "arrow.utcnow",
    "arrow.get",
    "pendulum.now",
    "pendulum.today",
    "pendulum.tomorrow",
    "pendulum.yesterday",
    "pendulum.DateTime.now",
    "datetime.datetime.now().*",
)

RANDOM = (
    "uuid.uuid1",
    "uuid.uuid4",
    "uuid.uuid6",
    "uuid.uuid7",
    "uuid6.uuid6",
    "uuid6.uuid7",
    "uuid_utils.uuid4",
    "uuid_utils.uuid7",
    "random.*",
    "secrets.*",
    "os.urandom",
    "nanoid.generate",
    "shortuuid.uuid",
    "shortuuid.random",
    "shortuuid.ShortUUID().uuid",
    "shortuuid.ShortUUID().random",
    "ulid.new",
    "ulid.ULID",
    "ulid.ulid",
    "ulid.from_timestamp",
    "bson.ObjectId",
    "bson.objectid.ObjectId",
    "django.utils.crypto.get_random_string",
    "numpy.random.*",
    "cuid.cuid",
)

# Context managers and decorators that open a database transaction.
TRANSACTIONS = (
    "django.db.transaction.atomic",
    "*.atomic",
    "*.begin",
    "*.begin_nested",
    "*.transaction",
    "*.in_transaction",
    "sqlite3.connect()",
    "psycopg2.connect()",
    "psycopg.connect()",
    "psycopg.Connection.connect()",
    "tortoise.transactions.in_transaction",
    "tortoise.transactions.atomic",
)

# Django / SQLAlchemy / DB-API writes: `Model.objects...create()`, `qs.update()`, `session.add()`.
ORM_WRITE_METHODS = (
    "create",
    "bulk_create",
    "update",
    "bulk_update",
    "delete",
    "get_or_create",
    "update_or_create",
    "save",
    "add",
    "add_all",
    "merge",
)
# The ORM methods whose keyword arguments record a row: a key field among them records the key.
ORM_RECORD_METHODS = ("create", "get_or_create", "update_or_create", "bulk_create")

# Dedup markers outside the database: a key set only if absent (`cache.add`, `SET NX`).
MARKER_CALLS = (
    "django.core.cache.cache.add",
    "django.core.cache.caches.*.add",
    "*.setnx",
    "*.hsetnx",
)

# Locks that a holder which dies keeps unless they expire (JC301): the call that takes one, the
# keyword that gives it an expiry, and that argument's position (a lock's name comes first).
LOCK_CALLS = (
    ("redis.*.lock", "timeout", 1),  # redis-py: Redis.lock(name, timeout=None, ...)
    ("*Redis().lock", "timeout", 1),
    ("valkey.*.lock", "timeout", 1),
    ("django_redis.*.lock", "timeout", 1),
    ("django.core.cache.cache.lock", "timeout", 1),  # django-redis's cache.lock(name, timeout=None)
    ("django.core.cache.caches.*.lock", "timeout", 1),
    ("redis.lock.Lock", "timeout", 2),  # Lock(redis, name, timeout=None)
    ("redis.asyncio.lock.Lock", "timeout", 2),
    ("redis_lock.Lock", "expire", 2),  # python-redis-lock: Lock(redis_client, name, expire=None)
)
# Lock files that stay on disk when their holder dies, and have no expiry to pass: pylockfile's
# (links, directories) and py-filelock's `SoftFileLock`. Not `filelock.FileLock` nor `fcntl.flock`:
# the operating system releases those with the process.
STALE_FILE_LOCKS = (
    "lockfile.FileLock", "lockfile.LockFile", "lockfile.LinkLockFile", "lockfile.MkdirLockFile",
    "lockfile.linklockfile.LinkLockFile", "lockfile.mkdirlockfile.MkdirLockFile", "filelock.SoftFileLock",
)
# Writes that set a key only if it is absent, and what gives the key an expiry: a lock when the
# same client deletes a key later in the function (taken, the work, released), else a marker that
# may be meant to last. `set(..., nx=True)` takes `ex`/`px`/... (or the expiry third, by position).
SET_IF_ABSENT_EXPIRY = ("ex", "px", "exat", "pxat", "keepttl")
CACHE_ADD_CALLS = ("django.core.cache.cache.add", "django.core.cache.caches.*.add")  # add(key, value, timeout)
LOCK_RELEASES = ("delete", "unlink")

# What a retrying framework raises when no retry is left (JC204: caught and silenced).
EXHAUSTION_ERRORS = ("MaxRetriesExceededError", "RetryError")

# Exceptions an API raises when it refused a request, so the call that raised them had no effect
# (unlike a timeout or a 5xx, after which the far end may have acted).
REJECTIONS = (
    "slack_sdk.errors.SlackApiError",
    "slack.errors.SlackApiError",
    "stripe.error.CardError",
    "stripe.CardError",
    "stripe.error.InvalidRequestError",
    "stripe.InvalidRequestError",
    "stripe.error.AuthenticationError",
    "twilio.base.exceptions.TwilioRestException",
    # An SMTP error reply means the server did not take the message (RFC 5321 §4.2, §6.1): the
    # response exceptions, not a dropped connection (SMTPServerDisconnected) after which it may have.
    "smtplib.SMTPResponseException",
    "smtplib.SMTPSenderRefused",
    "smtplib.SMTPRecipientsRefused",
    "smtplib.SMTPDataError",
    # pika's publisher confirms: the broker returned the message as unroutable or nacked it, so it
    # was not taken (a dropped connection, after which it may have been, is no such answer).
    "pika.exceptions.UnroutableError",
    "pika.exceptions.NackError",
    # aiormq's, which aio-pika re-exports: a basic.nack (DeliveryError) or a basic.return
    # (PublishError) answering the publish.
    "aiormq.exceptions.DeliveryError",
    "aiormq.exceptions.PublishError",
    "aio_pika.exceptions.DeliveryError",
    "aio_pika.exceptions.PublishError",
)
# ... and any exception named for a rate limit (`WebhookRateLimitExhausted`, `TooManyRequests`,
# `Throttled`): the far end refused the request (HTTP 429) before acting on it.
REJECTION_NAMES = r"(?i)rate_?limit|too_?many_?requests|throttl"

# Exceptions a retry catches that can come out of any external call.
BROAD_EXCEPTIONS = (
    "Exception",
    "BaseException",
    "OSError",
    "IOError",
    "EnvironmentError",
    "ConnectionError",
    "TimeoutError",
    "socket.error",
    "socket.timeout",
    "builtins.Exception",
)

# JC103, where one transaction holds a key and a write.
# `with psycopg.connect(dsn) as conn:` is one transaction, committed when the block ends, unless
# the connection is opened with `autocommit=True` (then only `conn.transaction()` makes one).
TRANSACTION_CONNECTS = ("psycopg.connect", "psycopg2.connect", "psycopg.Connection.connect", "sqlite3.connect")
# Connections whose statements share one transaction until `commit()` (a session autobegins too).
UNIT_OF_WORK_CONNECTIONS = (
    "psycopg.connect()",
    "psycopg2.connect()",
    "psycopg.Connection.connect()",
    "sqlite3.connect()",
    "pymysql.connect()",
    "MySQLdb.connect()",
)
# What ends a unit of work's transaction.
TRANSACTION_ENDS = ("commit", "rollback", "close")
# SQLAlchemy Core statements: executing one writes (`conn.execute(insert(table).values(...))`).
SQL_WRITE_STATEMENTS = {
    "sqlalchemy.insert": "insert",
    "sqlalchemy.update": "update",
    "sqlalchemy.delete": "delete",
    "sqlalchemy.sql.insert": "insert",
    "sqlalchemy.sql.update": "update",
    "sqlalchemy.sql.delete": "delete",
    "sqlalchemy.sql.expression.insert": "insert",
    "sqlalchemy.sql.expression.update": "update",
    "sqlalchemy.sql.expression.delete": "delete",
    "sqlalchemy.dialects.postgresql.insert": "insert",
    "sqlalchemy.dialects.sqlite.insert": "insert",
    "sqlalchemy.dialects.mysql.insert": "insert",
}
# SQL text for a later `execute`: the execute writes, not the text (`text("UPDATE ...")`).
SQL_TEXT_BUILDERS = ("sqlalchemy.text", "sqlalchemy.sql.text", "sqlalchemy.sql.expression.text")
# What a unique key refuses a duplicate with: a write in a try that catches one is a dedup record.
UNIQUE_VIOLATIONS = ("IntegrityError", "UniqueViolation", "UniqueViolationError")
