package dev.seckill.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A server's ports are asked one after another: none may come back twice (a broker's two listeners on one port). */
class FreePortTest {
    @Test
    void freePortsAskedOneAfterAnother_areAllDifferent() {
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) ports.add(ServerProcess.freePort());
        assertThat(ports).doesNotHaveDuplicates().allMatch(p -> p > 0 && p < 65_536);
    }
}
