# arq: a job runs again only when it raises `Retry`, after its `defer` (none: at once).
import httpx
from arq import Retry


async def sync_customer(ctx, customer_id):
    response = await ctx["http"].get(f"https://crm.example.com/{customer_id}")
    if response.status_code == 503:
        raise Retry()  # expect: JC203


async def sync_invoice(ctx, invoice_id):
    response = await ctx["http"].get(f"https://crm.example.com/invoices/{invoice_id}")
    if response.status_code == 503:
        raise Retry(defer=0.2)  # expect: JC203


# Clean: a growing defer, a real constant defer (by keyword and by position), no Retry.

async def sync_contact(ctx, contact_id):
    response = await ctx["http"].get(f"https://crm.example.com/contacts/{contact_id}")
    if response.status_code == 503:
        raise Retry(defer=ctx["job_try"] * 10)


async def sync_deal(ctx, deal_id):
    response = await ctx["http"].get(f"https://crm.example.com/deals/{deal_id}")
    if response.status_code == 503:
        raise Retry(defer=30)


async def sync_note(ctx, note_id):
    response = await ctx["http"].get(f"https://crm.example.com/notes/{note_id}")
    if response.status_code == 503:
        raise Retry(30)


async def sync_lead(ctx, lead_id):
    await httpx.AsyncClient().post("https://crm.example.com/leads", json={"id": lead_id})


class WorkerSettings:
    functions = [sync_customer, sync_invoice, sync_contact, sync_deal, sync_note, sync_lead]
