package dev.seckill.infra.harness.stack;

/**
 * One part of the local stack as {@code ./seckill status} reports it: its name, the address it answers on, whether it
 * does, and where to look next ({@code see}: its metrics and log, or Prometheus' alerts page; empty for the servers).
 */
public record Component(String name, String address, boolean up, String see) {
    /** The line {@code status} prints. */
    public String line() {
        return String.format("%-13s %-22s %s%s", name, address, up ? "UP" : "DOWN", see.isEmpty() ? "" : "  " + see);
    }
}
