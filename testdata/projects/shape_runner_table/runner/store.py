import sqlite3

DB = sqlite3.connect("queue.db", check_same_thread=False)


def claim_next():
    return DB.execute("UPDATE jobs SET state = 'running' WHERE id = (SELECT id FROM jobs WHERE state = 'queued' LIMIT 1) RETURNING id, kind, payload").fetchone()


def finish(job_id):
    DB.execute("UPDATE jobs SET state = 'done' WHERE id = ?", (job_id,))
    DB.commit()
