package dev.seckill.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("fast")
class TraceHeadersTest {
    @Test
    void newTraceIdsAreW3cShapedAndDistinct() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            String id = TraceHeaders.newTraceId();
            assertThat(id).matches("[0-9a-f]{32}").isNotEqualTo("0".repeat(32));
            seen.add(id);
        }
        assertThat(seen).hasSize(100_000);
    }

    @Test
    void everyHexDigitPositionIsUsed() {
        // a formatting slip (a dropped nibble, a fixed prefix) would leave some position constant
        String first = TraceHeaders.newTraceId();
        boolean[] varied = new boolean[32];
        for (int i = 0; i < 2_000; i++) {
            String id = TraceHeaders.newTraceId();
            for (int c = 0; c < 32; c++) varied[c] |= id.charAt(c) != first.charAt(c);
        }
        for (int c = 0; c < 32; c++)
            assertThat(varied[c]).as("position %d varies", c).isTrue();
    }

    @Test
    void aRecordCarriesOneTraceId() {
        RecordHeaders headers = new RecordHeaders();
        TraceHeaders.put(headers, "first");
        TraceHeaders.put(headers, "second");
        assertThat(TraceHeaders.get(headers)).isEqualTo("second");
        assertThat(headers.headers(TraceHeaders.TRACE_ID)).hasSize(1);
    }

    @Test
    void aTraceIdFromAnUpstreamHeader_isKeptWellFormed_orDropped_neverCarriedAtAnyLengthOrEncoding() {
        assertThat(read("x".repeat(64).getBytes(StandardCharsets.UTF_8))).isEqualTo("x".repeat(64));
        assertThat(read("x".repeat(65).getBytes(StandardCharsets.UTF_8)))
                .as("longer than the column")
                .isNull();
        assertThat(read("y".repeat(1 << 20).getBytes(StandardCharsets.UTF_8))).isNull();
        assertThat(read("trace-🎉".getBytes(StandardCharsets.UTF_8))).isNull();
        assertThat(read(new byte[0])).isNull();
        assertThat(read(new byte[] {(byte) 0xC3, (byte) 0x28, (byte) 0xFF})).isNull();
        assertThat(read("a b".getBytes(StandardCharsets.UTF_8))).isNull();
        assertThat(read("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01".getBytes(StandardCharsets.UTF_8)))
                .as("a W3C traceparent: its trace id")
                .isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    }

    @Test
    void aRecordWithOnlyAW3cTraceparent_carriesItsTraceId_aMalformedOneNone() {
        RecordHeaders headers = new RecordHeaders();
        headers.add(TraceHeaders.TRACEPARENT, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01".getBytes());
        assertThat(TraceHeaders.get(headers)).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        TraceHeaders.put(headers, "given");
        assertThat(TraceHeaders.get(headers)).as("a traceId set wins").isEqualTo("given");
        RecordHeaders malformed = new RecordHeaders();
        malformed.add(TraceHeaders.TRACEPARENT, "not-a-traceparent".getBytes());
        assertThat(TraceHeaders.get(malformed)).isNull();
        RecordHeaders both = new RecordHeaders();
        both.add(TraceHeaders.TRACE_ID, "a b".getBytes());
        both.add(TraceHeaders.TRACEPARENT, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01".getBytes());
        assertThat(TraceHeaders.get(both))
                .as("a malformed traceId: the traceparent's")
                .isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    }

    private static String read(byte[] value) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(TraceHeaders.TRACE_ID, value);
        return TraceHeaders.get(headers);
    }
}
