package dev.seckill.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerType;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One ledger record the reconciler cannot fold (not JSON, or missing what its type requires) is stepped over — recorded
 * in reconcile_audit with its position and reason, logged, counted — and reconciliation goes on. Before, the cycle
 * failed on it and, since the fold re-reads an uncommitted batch, every later cycle failed on it too.
 */
class LedgerFoldTest {
    final ReconcilerStack stack = new ReconcilerStack();

    @AfterEach
    void cleanUp() throws Exception {
        stack.close();
    }

    String fold(long goods) throws Exception {
        return stack.text(
                "SELECT CONCAT(opened, '/', deducted, '/', released) FROM reconcile_fold WHERE goods_id = ?", goods);
    }

    @Test
    void anUnreadableLedgerEntryIsSkippedWithItsReason_andReconciliationGoesOn() throws Exception {
        long goods = 9501;
        stack.opened(goods, 5, 0);
        stack.send(stack.topics.ledger(), goods, "{\"opId\":".getBytes(StandardCharsets.UTF_8));
        stack.ledger(LedgerEntry.of(
                "deduct:" + goods + ":anonymous", goods, LedgerType.DEDUCTED, 1, null, "x", null, 4, Instant.now()));
        stack.deducted(goods, 1, "ok-1", 4);
        Reconciler r = stack.reconciler(stack.producer);

        assertThat(r.cycle(goods)).singleElement();
        assertThat(fold(goods)).isEqualTo("5/1/0");
        assertThat(stack.text(
                        "SELECT GROUP_CONCAT(detail ORDER BY id SEPARATOR ' | ') FROM reconcile_audit "
                                + "WHERE goods_id = ? AND kind = 'unreadable_ledger_entry' AND action = 'skipped'",
                        goods))
                .contains(stack.topics.ledger() + "-")
                .contains("malformed LedgerEntry")
                .contains("DEDUCTED entry deduct:" + goods + ":anonymous without userId");
        assertThat(stack.metrics
                        .get("seckill_reconcile_ledger_skipped")
                        .counter()
                        .count())
                .isEqualTo(2);

        stack.deducted(goods, 2, "ok-2", 3);
        r.cycle(goods);
        assertThat(fold(goods)).as("later entries are folded").isEqualTo("5/2/0");
        assertThat(stack.one("SELECT COUNT(*) FROM reconcile_audit WHERE kind = 'unreadable_ledger_entry'"))
                .as("each skipped once")
                .isEqualTo(2);
        assertThat(stack.metrics
                        .get("seckill_reconcile_ledger_skipped")
                        .counter()
                        .count())
                .isEqualTo(2);
    }
}
