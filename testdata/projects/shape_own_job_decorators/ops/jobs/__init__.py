# The application's own job decorators: each keeps what it decorates for a runner of the
# application (a registry it is handed to, an attribute set on it) and gives it back.
import functools

PROCEDURES = []


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
