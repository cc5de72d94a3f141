package dev.seckill.order.write;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/** A record of a batch that can never be written, and why: what the consumer loop sends to the DLQ. */
public record DeadLetter(ConsumerRecord<String, byte[]> record, String reason) {}
