package dev.seckill.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class DecidedByTest {
    @Test
    void aRunIsWrittenAsInstanceStartAndNumber_andReadBack() {
        long before = System.currentTimeMillis();
        DecidedBy run = DecidedBy.newRun("stream-a-9102");

        assertThat(run.value()).matches("stream-a-9102/[0-9]+\\.[0-9]+");
        assertThat(run.runStartMs()).isBetween(before, System.currentTimeMillis());
        assertThat(DecidedBy.parse(run.value())).isEqualTo(run);
    }

    @Test
    void twoRunsOfOneProcessAreTwo_evenInOneMillisecond_andAnInstanceWithoutAnIdIsDynamic() {
        DecidedBy first = DecidedBy.newRun("");
        DecidedBy second = DecidedBy.newRun(null);

        assertThat(first.instance()).isEqualTo(DecidedBy.DYNAMIC);
        assertThat(second.runSeq()).isGreaterThan(first.runSeq());
        assertThat(second).isNotEqualTo(first);
    }

    @Test
    void anInstanceIdIsWhateverItsSettingSays_upToTheLastSlash() {
        DecidedBy run = new DecidedBy("pods/stream 0", 1_700_000_000_000L, 3);

        assertThat(DecidedBy.parse(run.value())).isEqualTo(run);
    }

    @Test
    void aRecordsOwnHeaderOfTheNameIsReplaced_andAMalformedOneReadsAsNone() {
        RecordHeaders headers = new RecordHeaders();
        headers.add(DecidedBy.HEADER, "forger/1.1".getBytes(StandardCharsets.UTF_8));
        DecidedBy run = new DecidedBy("stream-a", 5, 6);

        run.putOn(headers);

        assertThat(headers.headers(DecidedBy.HEADER)).hasSize(1);
        assertThat(DecidedBy.of(headers)).isEqualTo(run);
        assertThat(DecidedBy.parse("stream-a")).isNull();
        assertThat(DecidedBy.parse("/5.6")).isNull();
        assertThat(DecidedBy.parse("stream-a/5.x")).isNull();
        assertThat(DecidedBy.of(new RecordHeaders())).isNull();
    }
}
