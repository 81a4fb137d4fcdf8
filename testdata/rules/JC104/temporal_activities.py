# jobcheck-test: select=JC104
# Temporal activities are retried by default: at least once. SQS takes a MessageDeduplicationId
# only on a FIFO queue (MessageGroupId marks one); a standard queue has no key to pass. An activity
# scheduled with maximum_attempts=1 is not run again: at most once.
import boto3
from temporalio import activity, workflow
from temporalio.common import RetryPolicy

sqs = boto3.client("sqs")


@activity.defn
async def publish_shipment(order_id, body):
    sqs.send_message(QueueUrl="q.fifo", MessageBody=body, MessageGroupId=str(order_id))  # expect: JC104


@activity.defn
async def publish_shipment_deduplicated(order_id, body):
    sqs.send_message(QueueUrl="q.fifo", MessageBody=body, MessageGroupId=str(order_id),
                     MessageDeduplicationId=f"shipment-{order_id}")


@activity.defn
async def publish_to_standard_queue(order_id, body):
    sqs.send_message(QueueUrl="q", MessageBody=body)


@activity.defn
async def publish_once(order_id, body):
    sqs.send_message(QueueUrl="q.fifo", MessageBody=body, MessageGroupId=str(order_id))


@workflow.defn
class Shipping:
    @workflow.run
    async def run(self, order_id):
        await workflow.execute_activity(publish_once, order_id, "b", retry_policy=RetryPolicy(maximum_attempts=1))
