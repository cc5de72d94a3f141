package dev.seckill.system;

import dev.seckill.infra.harness.Namespace;
import dev.seckill.kit.config.Settings;
import dev.seckill.stack.KafkaBroker;
import dev.seckill.stack.KafkaFixture;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The namespaces this module's tests run in, and their removal: {@link #create} is {@link Namespace#create} that also
 * remembers the namespace, and this extension (registered for every test class of the module through
 * {@code META-INF/services}, {@code junit-platform.properties}) removes the remembered ones — topics, Redis keys,
 * database — after the class's own {@code @AfterAll} has closed its pipelines. A server a test stopped or started for
 * itself is gone with what it held: what cannot be reached is skipped; the suite's {@link LeftoversCheck} names
 * anything left on the machine's servers.
 */
public final class TestNamespaces implements AfterAllCallback {
    private static final Logger LOG = LoggerFactory.getLogger(TestNamespaces.class);
    private static final List<Namespace> OPEN = new ArrayList<>();

    /**
     * The settings of an in-process pipeline ({@code Pipeline}) on the tests' broker: the gateway and its admin port on
     * free ports, {@code partitions} partitions per topic.
     */
    public static Settings inProcess(int partitions) {
        return inProcess(partitions, Map.of());
    }

    /** As {@link #inProcess(int)}, with {@code more} settings of the test's own. */
    public static Settings inProcess(int partitions, Map<String, String> more) {
        Map<String, String> all = new HashMap<>(more);
        all.put(Settings.KAFKA_BOOTSTRAP, KafkaFixture.bootstrap());
        return onBroker(partitions, all);
    }

    /**
     * The settings of an in-process pipeline on a broker the test names in {@code more} (a secured cluster of its
     * own): the gateway and its admin port on free ports, {@code partitions} partitions per topic, and {@code more}.
     */
    public static Settings onBroker(int partitions, Map<String, String> more) {
        Map<String, String> all = new HashMap<>(more);
        all.put("gateway.port", "0");
        all.put("gateway.metrics.port", "0");
        all.put("topic.partitions", Integer.toString(partitions));
        return Settings.with(all);
    }

    public static Namespace create(Settings base, String name) {
        Namespace ns = Namespace.create(base, name);
        synchronized (OPEN) {
            OPEN.add(ns);
        }
        return ns;
    }

    @Override
    public void afterAll(ExtensionContext context) {
        List<Namespace> done;
        synchronized (OPEN) {
            done = new ArrayList<>(OPEN);
            OPEN.clear();
        }
        for (Namespace ns : done) remove(ns);
    }

    static void remove(Namespace ns) {
        if (KafkaBroker.answersMetadata(ns.settings())) attempt(ns, "topics", ns::deleteTopics);
        attempt(ns, "Redis keys", ns::deleteRedisKeys);
        attempt(ns, "database", ns::dropDatabase);
    }

    private static void attempt(Namespace ns, String what, Runnable removal) {
        try {
            removal.run();
        } catch (RuntimeException e) { // its server is gone (a test's own): so is what it held there
            LOG.info("namespace {}: {} not removed ({})", ns.name(), what, e.getMessage());
        }
    }
}
