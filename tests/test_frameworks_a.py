"""Airflow, Prefect, Dagster, Temporal and Luigi: which functions are entry points, of which kind,
and the retry policy each framework gives them (settings written, inherited, and defaults)."""

from __future__ import annotations

import ast
import textwrap

from jobcheck import api
from jobcheck.analysis.summary import Summarizer


def _jobs(sources: dict[str, str]) -> dict:
    """{function qualname: JobSite} for modules given as {module name: source}."""
    texts = {f"{name.replace('.', '/')}.py": textwrap.dedent(src) for name, src in sources.items()}
    modules = {f"{name.replace('.', '/')}.py": name for name in sources}
    report = api.check_sources(texts, selection=api.Selection(select=["JC501"]), modules=modules)
    return report.project.jobs


# ---- summary: references to module-level variables ---------------------------------------------


def test_module_variables_are_referenced_by_name():
    src = textwrap.dedent("""
        import requests
        from airflow.sdk import DAG
        ARGS = {"retries": 2}
        dag = DAG("d", default_args=ARGS)

        def f(ARGS=None):
            call(ARGS, dag)

        with dag:
            pass
    """)
    mod = Summarizer("m", "m.py").run(ast.parse(src))
    module_code = mod.functions["m.<module>"]
    dag_call = next(e for e in module_code.events if e.name == "airflow.sdk.DAG")
    assert dag_call.kwargs["default_args"] == ["ref", "m.ARGS"]
    inner = next(e for e in mod.functions["m.f"].events if e.name == "call")
    assert inner.args[0] == ["param", "ARGS", 0]  # the parameter shadows the module variable
    assert inner.args[1] == ["name", "airflow.sdk.DAG()", "m.dag"]
    assert module_code.regions[0].ref == "m.dag"


def test_a_function_returns_what_an_import_bound_not_a_local_it_looked_up():
    src = textwrap.dedent("""
        from concurrent.futures import ThreadPoolExecutor

        POOLS = {}

        def _shared_task():
            from celery import shared_task
            return shared_task

        def _rebound():
            from celery import shared_task
            shared_task = None
            return shared_task

        def _looped(tasks):
            from celery import shared_task
            for shared_task in tasks:
                pass
            return shared_task

        def pool(key) -> ThreadPoolExecutor:
            if key in POOLS:
                cached = POOLS[key]
                return cached
            return ThreadPoolExecutor(max_workers=2)
    """)
    mod = Summarizer("m", "m.py").run(ast.parse(src))
    assert mod.functions["m._shared_task"].return_type == "celery.shared_task"
    assert mod.functions["m._rebound"].return_type is None
    assert mod.functions["m._looped"].return_type is None
    assert mod.functions["m.pool"].return_type == "concurrent.futures.ThreadPoolExecutor()"


def test_deref_follows_imports_and_reexports():
    jobs = _jobs({
        "dags.common": """
            from datetime import timedelta
            BASE = {"retries": 4, "retry_delay": timedelta(seconds=30)}
        """,
        "dags.settings": "from dags.common import BASE as DEFAULTS\n",
        "dags.pipeline": """
            from airflow.sdk import DAG, task
            from dags.settings import DEFAULTS

            @task
            def load():
                pass

            with DAG("pipeline", default_args={**DEFAULTS, "retry_exponential_backoff": True}):
                load()
        """,
    })
    policy = jobs["dags.pipeline.load"].retry
    assert (policy.limit, policy.delay, policy.backoff) == (4, 30.0, "exponential")
    assert "default_args of DAG 'pipeline'" in policy.setting


# ---- Airflow -----------------------------------------------------------------------------------


def test_airflow_resolves_decorators_by_name_not_spelling():
    jobs = _jobs({
        "flows": """
            from airflow.decorators import task as af_task
            from airflow import sdk
            from prefect import task

            @af_task.virtualenv(requirements=["x"])
            def a(): ...

            @sdk.task.branch
            def b(): ...

            @task
            def c(): ...

            @sdk.task.run_if(lambda ctx: True)
            @sdk.task
            def d(): ...
        """,
    })
    assert {q: (s.framework, s.kind) for q, s in jobs.items()} == {
        "flows.a": ("airflow", "task"),
        "flows.b": ("airflow", "task"),
        "flows.c": ("prefect", "task"),
        "flows.d": ("airflow", "task"),
    }


def test_airflow_task_policy_precedence_and_defaults():
    jobs = _jobs({
        "dag1": """
            from datetime import timedelta
            import pendulum
            from airflow.sdk import DAG, TaskGroup, dag, task

            @task
            def plain(): ...

            @task(retries=1, on_failure_callback=print)
            def own(): ...

            @task
            def grouped(): ...

            @task
            def twice(): ...

            with DAG("one", default_args=dict(retries=2, retry_delay=timedelta(minutes=2))):
                own()
                with TaskGroup("g", default_args={"retries": 6}):
                    grouped()
                twice()

            with DAG("two", default_args={"retries": 9}):
                twice()

            @task
            def never_called(): ...

            @task
            def built_by_helper(): ...

            def add_steps():
                built_by_helper()

            @dag(default_args={"retries": 3})
            def factory():
                add_steps()
        """,
    })
    plain = jobs["dag1.plain"].retry
    assert (plain.limit, plain.from_default, plain.disabled) == (0, True, True)
    own = jobs["dag1.own"].retry
    assert (own.limit, own.delay, own.failure_handler) == (1, 120.0, "on_failure_callback")
    assert jobs["dag1.grouped"].retry.limit == 6
    twice = jobs["dag1.twice"].retry
    assert twice.limit == 9 and "DAG 'two'" in twice.setting  # the worst of its DAGs
    assert jobs["dag1.never_called"].retry.disabled
    helper = jobs["dag1.built_by_helper"].retry  # created by a helper the @dag function calls
    assert helper.limit == 3 and "@dag factory" in helper.setting


def test_airflow_kinds():
    jobs = _jobs({
        "kinds": """
            from airflow.sdk import BaseOperator, asset, dag, task
            from airflow.providers.standard.operators.python import PythonOperator
            from airflow.providers.standard.sensors.python import PythonSensor
            from airflow.providers.standard.operators.bash import BashOperator

            def ready(): return True
            def work(): ...

            class Copy(BaseOperator):
                def execute(self, context): ...

            class Loud(BashOperator):
                pass

            @asset(schedule="@daily")
            def report(): ...

            @dag
            def factory():
                @task.sensor
                def wait(): return True
                PythonSensor(task_id="r", python_callable=ready)
                PythonOperator(task_id="w", python_callable=work)
                PythonOperator(task_id="l", python_callable=lambda: 1)
                Copy(task_id="c")
                Loud(task_id="loud", bash_command="true")
                wait()

            factory()
        """,
    })
    assert {q: s.kind for q, s in jobs.items()} == {
        "kinds.ready": "sensor", "kinds.work": "task", "kinds.Copy.execute": "operator",
        "kinds.report": "asset", "kinds.factory": "dag", "kinds.factory.<locals>.wait": "sensor",
    }
    assert jobs["kinds.Copy.execute"].display == "kinds.Copy"


# ---- Prefect -----------------------------------------------------------------------------------


def test_prefect_policies():
    jobs = _jobs({
        "pf": """
            from prefect import flow, task
            from prefect.tasks import exponential_backoff

            @task(retries=4, retry_delay_seconds=exponential_backoff(backoff_factor=2), on_failure=[print])
            def a(): ...

            @task(retry_delay_seconds=[1, 5, 30])
            def b(): ...

            @task
            def c(): ...

            @flow(retries=None)
            def f():
                c.with_options(retries=7)()
        """,
    })
    a = jobs["pf.a"].retry
    assert (a.limit, a.backoff, a.failure_handler, a.from_default) == (4, "exponential", "on_failure", False)
    assert jobs["pf.b"].retry.disabled  # a delay without retries retries nothing
    c = jobs["pf.c"].retry
    assert c.limit == 7 and c.setting == "with_options(retries=7)"
    assert jobs["pf.f"].retry.disabled and jobs["pf.f"].kind == "flow"


# ---- Dagster -----------------------------------------------------------------------------------


def test_dagster_policy_precedence():
    jobs = _jobs({
        "dg": """
            import dagster as dg

            @dg.op(retry_policy=dg.RetryPolicy())
            def own(): ...

            @dg.op
            def inherited(): ...

            @dg.op(retry_policy=dg.RetryPolicy(max_retries=1))
            def overridden(): ...

            @dg.graph
            def inner():
                inherited()

            @dg.job(op_retry_policy=dg.RetryPolicy(max_retries=3, delay=2, backoff=dg.Backoff.EXPONENTIAL))
            def nightly():
                own()
                inner()
                overridden.with_retry_policy(dg.RetryPolicy(max_retries=8)).alias("again")()

            @dg.schedule(job=nightly, cron_schedule="@daily")
            def daily(context): ...

            def evaluate(context): ...

            watcher = dg.SensorDefinition(name="w", evaluation_fn=evaluate, job=nightly)
        """,
    })
    assert jobs["dg.own"].retry.limit == 1  # RetryPolicy() means one retry
    inherited = jobs["dg.inherited"].retry
    assert (inherited.limit, inherited.backoff, inherited.delay) == (3, "exponential", 2.0)
    assert jobs["dg.overridden"].retry.limit == 8
    assert {q: s.kind for q, s in jobs.items() if s.kind not in ("op",)} == {
        "dg.inner": "graph", "dg.nightly": "job", "dg.daily": "schedule", "dg.evaluate": "sensor",
    }


# ---- Temporal ----------------------------------------------------------------------------------


def test_temporal_activity_policies_come_from_call_sites():
    jobs = _jobs({
        "tw": """
            from temporalio import activity, workflow
            from temporalio.common import RetryPolicy

            @activity.defn
            async def unlimited(): ...

            @activity.defn(name="bounded")
            async def bounded_activity(): ...

            @activity.defn
            async def mixed(): ...

            class Charge:
                @activity.defn
                async def __call__(self): ...

            @workflow.defn
            class W:
                @workflow.run
                async def go(self):
                    await workflow.execute_activity(
                        "bounded", retry_policy=RetryPolicy(maximum_attempts=5, backoff_coefficient=1.0)
                    )
                    await workflow.execute_activity(mixed, retry_policy=RetryPolicy(maximum_attempts=2))
                    await workflow.execute_activity(mixed)
                    await workflow.execute_activity_class(Charge, retry_policy=RetryPolicy(maximum_attempts=1))
        """,
    })
    unlimited = jobs["tw.unlimited"].retry
    assert (unlimited.bounded, unlimited.from_default, unlimited.backoff) == (False, True, "exponential")
    bounded = jobs["tw.bounded_activity"].retry
    assert (bounded.limit, bounded.backoff) == (4, "constant")
    assert not jobs["tw.mixed"].retry.bounded  # one call site keeps the default
    assert jobs["tw.Charge.__call__"].retry.disabled
    workflow_site = jobs["tw.W.go"]
    assert (workflow_site.kind, workflow_site.display, workflow_site.retry) == ("workflow", "tw.W", None)


# ---- Luigi -------------------------------------------------------------------------------------


def test_luigi_entry_points_and_retry_count():
    jobs = _jobs({
        "lg": """
            import luigi
            import luigi.contrib.hadoop
            import luigi.contrib.spark

            class Base(luigi.Task):
                retry_count = 4
                def run(self): ...

            class Variant(Base):
                pass

            class Counted(luigi.contrib.hadoop.JobTask):
                def mapper(self, line): ...
                def reducer(self, key, values): ...

            class Submit(luigi.contrib.spark.SparkSubmitTask):
                app = "job.py"

            class Made(luigi.ExternalTask):
                def run(self): ...

            class Wrapper(luigi.WrapperTask):
                def requires(self): ...
        """,
    })
    assert set(jobs) == {"lg.Base.run", "lg.Counted.reducer", "lg.Made.run"}
    assert jobs["lg.Base.run"].retry.limit == 3  # four failures allowed: three retries
    assert jobs["lg.Made.run"].retry.disabled


def test_airflow_dag_context_of_a_helper_does_not_depend_on_which_call_is_seen_first():
    """Operators built in helpers take the DAG's default_args when the DAG is at most four calls
    up. The answer is the same whichever operator is looked at first: a walk cut off at that limit
    (from the deep helper) must not be remembered as "in no DAG" for the helpers it passed
    through, nor a walk that reached the DAG let a deeper one see past the limit."""
    head = """
        from datetime import datetime
        from airflow import DAG
        from airflow.operators.python import PythonOperator

        def shallow_job():
            pass

        def deep_job():
            pass
    """
    shallow = """
        def level3():
            PythonOperator(task_id="shallow", python_callable=shallow_job)
            level4()
    """
    deep = """
        def level6():
            PythonOperator(task_id="deep", python_callable=deep_job)

        def level5():
            level6()

        def level4():
            level5()
    """
    tail = """
        def level2():
            level3()

        def level1():
            level2()

        with DAG("d", schedule=None, start_date=datetime(2024, 1, 1), default_args={"retries": 5}):
            level1()
    """
    parts = [textwrap.dedent(p) for p in (head, shallow, deep, tail)]
    for source in (parts[0] + parts[1] + parts[2] + parts[3], parts[0] + parts[2] + parts[1] + parts[3]):
        jobs = _jobs({"dags": source})
        assert (jobs["dags.shallow_job"].retry.limit, jobs["dags.deep_job"].retry.limit) == (5, 0)


def test_netbox_system_job_kinds():
    """`@system_job` makes the `run` it runs periodic, also a base's `run` a subclass keeps; a
    `JobRunner` enqueued by hand is a task."""
    jobs = _jobs({"nb": """
        from netbox.jobs import JobRunner, system_job

        class Scan(JobRunner):
            def run(self, *args, **kwargs):
                pass

        class Base(JobRunner):
            def run(self, *args, **kwargs):
                pass

        @system_job(interval=60)
        class Refresh(Base):
            pass

        @system_job(interval=1440)
        class Cleanup(JobRunner):
            def run(self, *args, **kwargs):
                pass
    """})
    assert {q: (s.framework, s.kind) for q, s in jobs.items()} == {
        "nb.Scan.run": ("netbox", "task"), "nb.Base.run": ("netbox", "periodic"),
        "nb.Cleanup.run": ("netbox", "periodic"),
    }
