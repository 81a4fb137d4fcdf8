{
    "name": "Partner sync",
    "version": "17.0.1.0.0",
    "depends": ["base", "mail"],
    "data": ["data/ir_cron.xml", "data/ir_cron_legacy.xml", "data/server_actions.xml", "data/queue_job_function.xml"],
}
