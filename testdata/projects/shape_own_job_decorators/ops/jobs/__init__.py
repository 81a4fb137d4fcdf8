# The application's own job decorators: each keeps what it decorates for a runner of the
# application (a registry it is handed to, a module's table it is stored in, an attribute set on
# it) and gives it back.
import functools

PROCEDURES = []
STORAGE = []


class RegisteredTask:
    """The function wrapped in an object that queues it: `add.enqueue(args=(4, 2))`."""

    def __init__(self, func, queue="default"):
        self.func = func
        self.queue = queue

    def __call__(self, *args, **kwargs):
        return self.func(*args, **kwargs)

    def enqueue(self, **job_kwargs):
        STORAGE.append((self.queue, self.func.__name__, job_kwargs))

    def enqueue_in(self, delay, **job_kwargs):
        STORAGE.append((self.queue, self.func.__name__, delay, job_kwargs))


def queued(func=None, queue="default"):
    if func is None:
        return functools.partial(queued, queue=queue)
    return RegisteredTask(func, queue=queue)


class TaskRegistry:
    def __init__(self):
        self.tasks = {}

    def register(self, task):
        self.tasks[task.name] = task


registry = TaskRegistry()


def registered(name=None, max_retries=3):
    """A task queue's own decorator: the function is wrapped in a `RegisteredTask` built with
    keywords and kept in a registry the worker looks names up in."""
    def decorator(fn):
        t = RegisteredTask(func=fn, queue=name or fn.__name__)
        registry.register(t)
        return t

    return decorator


class Command:
    """A wrapper that runs the function when the command line names it: no queue."""

    def __init__(self, func):
        self.func = func

    def run(self, argv):
        return self.func(*argv)


def command(func):
    return Command(func)


def background_task(**options):
    def decorator(func):
        PROCEDURES.append((func, options))
        return func

    return decorator


def schedule_often(every=10, **options):
    options.update(every_unit="seconds", every=every)
    return background_task(**options)


def job(name, max_workers=1):
    def decorator(fn):
        fn._job_meta = {"name": name, "max_workers": max_workers}
        return fn

    return decorator


HANDLERS = {}


def worker_task(name=None):
    """A registry of the queue's own: the worker looks the function up by name in `HANDLERS`."""
    def decorator(fn):
        HANDLERS[name or fn.__name__] = fn
        return fn

    return decorator


def periodic(coro):
    coro.main_loop = "periodic"  # run by the application's main loop at its interval
    return coro


def system_job(func):
    PROCEDURES.append((func, {}))
    return func


# Named as making jobs, but keeping nothing: wrappers and markers of other things.
def log_task(func):
    @functools.wraps(func)
    def run(*args, **kwargs):
        print("running", func.__name__)
        return func(*args, **kwargs)

    return run


def task(func):
    return func  # keeps nothing: no runner knows of it


def schedule_request(method):
    method._lsp_request = True  # named for scheduling, but nothing named a job on the way
    return method
