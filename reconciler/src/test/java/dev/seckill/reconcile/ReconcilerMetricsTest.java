package dev.seckill.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.kit.observability.MetricsServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The reconciler's connection pool publishes its own series (the runbook reads them when the DB is slow). */
class ReconcilerMetricsTest {
    final ReconcilerStack stack = new ReconcilerStack();

    @AfterEach
    void cleanUp() throws Exception {
        stack.close();
    }

    @Test
    void theReconcilersPoolIsOnItsMetrics() throws Exception {
        PrometheusMeterRegistry metrics = MetricsServer.newRegistry();
        try (ReconcilerApp app = new ReconcilerApp(stack.settings, metrics).start()) {
            app.cycle(); // the pool lends a connection at least once

            assertThat(metrics.scrape())
                    .contains(
                            "hikaricp_connections_pending{pool=\"reconciler\"}",
                            "hikaricp_connections_active{pool=\"reconciler\"}",
                            "hikaricp_connections_max{pool=\"reconciler\"}",
                            "hikaricp_connections_acquire_seconds_count{pool=\"reconciler\"}");
        } finally {
            metrics.close();
        }
    }
}
