package dev.seckill.stock.decision;

import dev.seckill.contracts.redis.RedisKeys;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/** Reads a goods' sale for the {@link SoldOutGate} ({@link StockScripts#snapshot}). */
final class SaleSnapshots {
    private SaleSnapshots() {}

    static SaleSnapshot read(UnifiedJedis redis, RedisKeys keys, MeterRegistry metrics, long goodsId, int partition) {
        try {
            List<String> sale = redis.hmget(keys.sale(goodsId), "startAt", "endAt", "perUserLimit", "status");
            if (sale.get(0) == null || sale.get(1) == null || sale.get(2) == null) return null;
            String stock = redis.get(keys.stock(goodsId));
            Set<Long> buyers = new HashSet<>();
            for (String user : redis.hkeys(keys.buyers(goodsId))) buyers.add(Long.parseLong(user));
            Set<String> decided = new HashSet<>();
            long lastOffset = -1;
            String cursor = ScanParams.SCAN_POINTER_START;
            ScanParams page = new ScanParams().count(1000);
            do {
                ScanResult<Map.Entry<String, String>> scan = redis.hscan(keys.decisions(goodsId), cursor, page);
                for (Map.Entry<String, String> e : scan.getResult()) {
                    if (e.getKey().startsWith(StockScripts.PAID_MARK)) continue; // a mark, not a decision
                    if (e.getKey().startsWith(StockScripts.PURCHASE_DECISION))
                        decided.add(e.getKey().substring(StockScripts.PURCHASE_DECISION.length()));
                    lastOffset = Math.max(
                            lastOffset, StoredDecision.parse(e.getValue()).offsetIn(partition));
                }
                cursor = scan.getCursor();
            } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
            metrics.counter("seckill_soldout_gate_snapshots").increment();
            return new SaleSnapshot(
                    Long.parseLong(sale.get(0)),
                    Long.parseLong(sale.get(1)),
                    Integer.parseInt(sale.get(2)),
                    "closed".equals(sale.get(3)),
                    stock == null ? 0 : Long.parseLong(stock),
                    buyers,
                    decided,
                    lastOffset);
        } catch (RuntimeException e) { // Redis refused or an entry did not parse: the gate stays unarmed
            metrics.counter("seckill_soldout_gate_snapshot_errors").increment();
            return null;
        }
    }
}
