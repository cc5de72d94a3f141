#!/usr/bin/python3
"""An upstream service's purchase, produced straight to seckill's commands topic with confluent-kafka (Debian's
python3-confluent-kafka), following docs/contracts.md, "Producing a purchase from an upstream service": a requestId of
its own, the goodsId as the key (the Java client's default partitioner, murmur2), acceptedAt when it took the order,
acks=all with idempotence; then its one outcome read from the four outcome topics (read_committed) by requestId.

Prints "<requestId> <OUTCOME>[/<reason>]" and exits 0, or exits 1 with no outcome in 60 s.
Usage: purchase_producer.py BOOTSTRAP PREFIX GOODS_ID USER_ID [REQUEST_ID]
"""
import hashlib
import json
import sys
import time
import uuid
from datetime import datetime, timezone

from confluent_kafka import Consumer, Producer, TopicPartition, OFFSET_BEGINNING


def accepted_at():
    """UTC, ISO-8601 with a Z, milliseconds: the contract's instant."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def traceparent(request_id):
    """W3C Trace Context: the trace id reaches the order row; from the requestId, so a retry joins the same trace."""
    h = hashlib.sha256(request_id.encode("utf-8")).hexdigest()
    return f"00-{h[:32]}-{h[32:48]}-01"


def main(argv):
    bootstrap, prefix, goods_id, user_id = argv[1], argv[2], int(argv[3]), int(argv[4])
    request_id = argv[5] if len(argv) > 5 else "shop-example-py:" + str(uuid.uuid4())
    purchase = {"v": 1, "type": "purchase", "requestId": request_id, "goodsId": goods_id, "userId": user_id,
                "quantity": 1, "acceptedAt": accepted_at()}

    # murmur2_random is librdkafka's name for the Java client's default partitioner: a goods' commands on one partition
    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "enable.idempotence": True,
                         "partitioner": "murmur2_random"})
    delivered = []
    producer.produce(prefix + "commands", key=str(goods_id), value=json.dumps(purchase).encode("utf-8"),
                     headers=[("traceparent", traceparent(request_id))],
                     on_delivery=lambda err, msg: delivered.append(err))
    producer.flush(30)
    if delivered != [None]:
        print(f"{request_id}: not acknowledged by Kafka: {delivered}", file=sys.stderr)
        return 1

    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "example-" + request_id,
                         "isolation.level": "read_committed", "enable.auto.commit": False})
    topics = [prefix + t for t in ("outcome.success", "outcome.sold-out", "outcome.duplicate", "outcome.rejected")]
    partitions = []
    for topic in topics:
        meta = consumer.list_topics(topic, timeout=30).topics[topic]
        partitions += [TopicPartition(topic, p, OFFSET_BEGINNING) for p in meta.partitions]
    consumer.assign(partitions)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is None or msg.error():
                continue
            outcome = json.loads(msg.value())
            if outcome.get("requestId") != request_id:
                continue
            reason = "/" + outcome["reason"] if "reason" in outcome else ""
            print(f"{request_id} {outcome['outcome']}{reason}")
            return 0
    finally:
        consumer.close()
    print(f"{request_id}: no outcome in 60 s", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
