package dev.seckill.stock.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;

/**
 * The topics a test made on the fixture's broker, removed after it: every topic whose name starts with a namespace
 * the test noted — its own topics and those Kafka Streams made for it (changelogs, repartition topics).
 */
public final class TestTopics {
    private final List<String> namespaces = new ArrayList<>();

    /** Notes {@code namespace} (a topic prefix) for removal; returns it. */
    public String note(String namespace) {
        namespaces.add(namespace);
        return namespace;
    }

    /** Deletes every topic of the noted namespaces (call from {@code @AfterEach}, once the streams are closed). */
    public void deleteAll() throws Exception {
        if (namespaces.isEmpty()) return;
        try (Admin admin = KafkaGroups.admin()) {
            List<String> theirs = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                    .filter(t -> namespaces.stream().anyMatch(t::startsWith))
                    .toList();
            if (!theirs.isEmpty()) admin.deleteTopics(theirs).all().get(30, TimeUnit.SECONDS);
        }
        namespaces.clear();
    }
}
