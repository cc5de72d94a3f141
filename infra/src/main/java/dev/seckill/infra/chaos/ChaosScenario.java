package dev.seckill.infra.chaos;

import java.util.List;

/**
 * A fault the running pipeline meets: which of its processes is SIGKILLed, how many times, at random moments (seeded)
 * while it is deciding, each time restarted as an operator would (warm-up off).
 */
record ChaosScenario(String name, String part, int kills, String what) {
    static final List<ChaosScenario> ALL = List.of(
            new ChaosScenario(
                    "kill-stream", "stock-stream", 3, "SIGKILL of stock-stream while it decides, three times"),
            new ChaosScenario("kill-writer", "order-writer", 2, "SIGKILL of order-writer while it writes, twice"),
            new ChaosScenario(
                    "kill-gateway",
                    "gateway",
                    2,
                    "SIGKILL of the gateway with requests in flight, twice: every purchase it took is decided once"));

    static ChaosScenario named(String name) {
        return ALL.stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no chaos scenario " + name + "; there are "
                        + String.join(
                                ", ", ALL.stream().map(ChaosScenario::name).toList())));
    }
}
