package dev.seckill.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A restore is audited before it is sent: its audit row (naming the command's opId) is committed first and marked sent
 * once Kafka acknowledged the command, so a process that dies in between leaves an audited restore that the next cycle
 * sends — never a restore sent without its audit row. The goods here is wiped (a live sale, no Redis key), which the
 * reconciler restores even while its partition has work in flight (no writer runs).
 */
class RestoreOutboxTest {
    static final Pattern OP_ID = Pattern.compile("\"opId\":\"([^\"]+)\"");
    final ReconcilerStack stack = new ReconcilerStack();

    @AfterEach
    void cleanUp() throws Exception {
        stack.close();
    }

    interface BeforeSend {
        void accept(String opId) throws Exception;
    }

    /** The stack's producer, with {@code before} run on each command first (it may throw: the send never happens). */
    @SuppressWarnings("unchecked")
    Producer<String, byte[]> producer(BeforeSend before) {
        return (Producer<String, byte[]>) Proxy.newProxyInstance(
                Producer.class.getClassLoader(), new Class<?>[] {Producer.class}, (proxy, method, args) -> {
                    if (method.getName().equals("send")) {
                        Matcher m = OP_ID.matcher(
                                new String((byte[]) ((ProducerRecord<?, ?>) args[0]).value(), StandardCharsets.UTF_8));
                        before.accept(m.find() ? m.group(1) : null);
                    }
                    if (method.getName().equals("close")) return null; // the stack closes its own producer
                    try {
                        return method.invoke(stack.producer, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void aRestoreIsAuditedBeforeItIsSent_andMarkedSentOnceAcknowledged() throws Exception {
        long goods = 9401;
        stack.opened(goods, 5, 0);
        List<String> auditAtSend = new ArrayList<>();
        Reconciler r = stack.reconciler(producer(opId -> auditAtSend.add(stack.text(
                "SELECT CONCAT(kind, '/', IF(sent_at IS NULL, 'unsent', 'sent')) FROM reconcile_audit WHERE op_id = ?",
                opId))));
        assertThat(r.cycle(goods).get(0).repairs()).containsExactly("redis_wiped: restore_sent");
        assertThat(auditAtSend)
                .as("when the command was sent, its audit row was already committed")
                .containsExactly("redis_wiped/unsent");
        String opId = stack.text("SELECT op_id FROM reconcile_audit WHERE kind = 'redis_wiped'");
        assertThat(stack.text("SELECT sent_at FROM reconcile_audit WHERE op_id = ?", opId))
                .isNotNull();
        assertThat(stack.commands()).singleElement().asString().contains("\"opId\":\"" + opId + "\"");
    }

    @Test
    void aRestoreAuditedButNeverSent_isSentByTheNextCycleUnderItsOwnOpId() throws Exception {
        long goods = 9402;
        stack.opened(goods, 5, 0);
        Reconciler dying = stack.reconciler(producer(opId -> {
            throw new IllegalStateException("the process died before the send");
        }));
        assertThatThrownBy(() -> dying.cycle(goods)).hasMessageContaining("died before the send");
        String opId = stack.text("SELECT op_id FROM reconcile_audit WHERE kind = 'redis_wiped' AND sent_at IS NULL");
        assertThat(opId).as("audited, not sent").isNotNull();
        assertThat(stack.commands()).isEmpty();

        Reconciler restarted = stack.reconciler(stack.producer);
        restarted.cycle(goods);
        assertThat(stack.text("SELECT sent_at FROM reconcile_audit WHERE op_id = ?", opId))
                .isNotNull();
        assertThat(stack.commands()).anySatisfy(c -> assertThat(c).contains("\"opId\":\"" + opId + "\""));
        assertThat(stack.one("SELECT COUNT(*) FROM reconcile_audit WHERE sent_at IS NULL AND op_id IS NOT NULL"))
                .isZero();
    }
}
