package dev.seckill.stock.draw.beacon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DrandRelays against a {@link LocalBeacon} (period 1 s) and fake relays that misbehave, all on 127.0.0.1. */
@Tag("fast")
class DrandRelaysTest {
    static final Duration PATIENCE = Duration.ofSeconds(15);
    /** No grace: a past round's first failed attempt makes it unreachable at once. */
    static final DrandRelays.Settings NO_GRACE = new DrandRelays.Settings(
            Duration.ofSeconds(2), Duration.ZERO, Duration.ofMillis(200), Duration.ofSeconds(5), 64);

    @TempDir
    Path dir;

    LocalBeacon beacon;

    @BeforeEach
    void startBeacon() throws Exception {
        beacon = LocalBeacon.start(dir.resolve("key.json"), 0, 1);
    }

    @AfterEach
    void stopBeacon() {
        beacon.close();
    }

    @Test
    void aPastRoundIsNotYetWhileFetchedThenReady() {
        try (DrandRelays relays = new DrandRelays(beacon.chain(), List.of(beacon.url()))) {
            assertThat(relays.round(1))
                    .isEqualTo(new Fetch.NotYet(beacon.chain().timeOfMs(1)));
            await().atMost(PATIENCE).until(() -> relays.round(1) instanceof Fetch.Ready);
            assertThat(relays.round(1)).isEqualTo(new Fetch.Ready(beacon.sign(1)));
            assertThat(relays.failures()).isZero();
            assertThat(relays.lastFailure()).isEmpty();
        }
    }

    @Test
    void aFutureRoundIsNotYetUntilItsTimeThenReady() {
        BeaconChain chain = beacon.chain();
        long round = chain.firstRoundAfter(System.currentTimeMillis()) + 1;
        long due = chain.timeOfMs(round);
        try (DrandRelays relays = new DrandRelays(chain, List.of(beacon.url()))) {
            assertThat(relays.round(round)).isEqualTo(new Fetch.NotYet(due));
            await().atMost(PATIENCE).until(() -> relays.round(round) instanceof Fetch.Ready);
            assertThat(System.currentTimeMillis()).isGreaterThanOrEqualTo(due);
            assertThat(relays.round(round)).isEqualTo(new Fetch.Ready(beacon.sign(round)));
        }
    }

    @Test
    void aRelayAnsweringAWrongSignatureMakesTheRoundUnreachableAndSaysWhy() throws Exception {
        try (FakeRelay liar = new FakeRelay(path -> {
                    long asked = FakeRelay.roundOf(path);
                    BeaconRound other = beacon.sign(asked + 1); // a valid point, signing another round
                    return new FakeRelay.Reply(
                            200,
                            "{\"round\":" + asked + ",\"randomness\":\"" + hex(other.randomness())
                                    + "\",\"signature\":\"" + other.signatureHex() + "\"}");
                });
                DrandRelays relays =
                        new DrandRelays(beacon.chain(), List.of(liar.url()), NO_GRACE, Clock.systemUTC())) {
            String expected = "relay " + liar.url() + ": signature does not verify";
            await().atMost(PATIENCE).until(() -> reason(relays.round(1)), expected::equals);
            assertThat(relays.failures()).isPositive();
            assertThat(relays.lastFailure()).contains("round 1: " + expected);
            await().atMost(PATIENCE)
                    .until(
                            () -> { // asked for again, it is tried again (after a backoff), in vain
                                assertThat(reason(relays.round(1))).isEqualTo(expected);
                                // the relay counts a request when it comes, the client a failure once it read the
                                // reply: wait for both
                                return liar.requests() >= 3 && relays.failures() >= 3;
                            });
            assertThat(relays.failures()).isGreaterThanOrEqualTo(3);
        }
    }

    @Test
    void everyRelaysReasonIsNamedWhenNoneGivesTheRound() throws Exception {
        URI down = FakeRelay.downUrl();
        try (FakeRelay broken = new FakeRelay(path -> new FakeRelay.Reply(503, "overloaded"));
                DrandRelays relays =
                        new DrandRelays(beacon.chain(), List.of(down, broken.url()), NO_GRACE, Clock.systemUTC())) {
            String reason = await().atMost(PATIENCE)
                    .until(() -> reason(relays.round(1)), r -> r != null && r.contains("HTTP 503"));
            assertThat(reason).startsWith("relay " + down + " unreachable: ");
            assertThat(reason).endsWith("; relay " + broken.url() + ": HTTP 503 (\"overloaded\")");
            assertThat(reason).doesNotContain("\n");
        }
    }

    @Test
    void theNextRelayIsAskedWhenTheFirstIsDown() throws Exception {
        try (DrandRelays relays = new DrandRelays(beacon.chain(), List.of(FakeRelay.downUrl(), beacon.url()))) {
            await().atMost(PATIENCE).until(() -> relays.round(2) instanceof Fetch.Ready);
            assertThat(relays.round(2)).isEqualTo(new Fetch.Ready(beacon.sign(2)));
            assertThat(relays.failures()).isZero();
        }
    }

    @Test
    void aFailedAttemptIsRetriedAfterABackoff() throws Exception {
        try (FakeRelay flaky = new FakeRelay(path -> {
                    throw new IllegalStateException("not this time");
                });
                DrandRelays relays = new DrandRelays(
                        beacon.chain(), List.of(flaky.url(), beacon.url()), NO_GRACE, Clock.systemUTC())) {
            await().atMost(PATIENCE).until(() -> relays.round(1) instanceof Fetch.Ready);
            assertThat(flaky.requests()).isEqualTo(1); // the relay that answered is asked first from then on
            await().atMost(PATIENCE).until(() -> relays.round(2) instanceof Fetch.Ready);
            assertThat(flaky.requests()).isEqualTo(1);
        }
        int[] calls = {0};
        try (FakeRelay onceDown = new FakeRelay(path -> {
                    synchronized (calls) {
                        if (calls[0]++ == 0) return new FakeRelay.Reply(500, "restarting");
                    }
                    BeaconRound round = beacon.sign(FakeRelay.roundOf(path));
                    return new FakeRelay.Reply(
                            200, "{\"round\":" + round.round() + ",\"signature\":\"" + round.signatureHex() + "\"}");
                });
                DrandRelays relays =
                        new DrandRelays(beacon.chain(), List.of(onceDown.url()), NO_GRACE, Clock.systemUTC())) {
            await().atMost(PATIENCE).until(() -> reason(relays.round(1)), r -> r != null && r.contains("HTTP 500"));
            await().atMost(PATIENCE).until(() -> relays.round(1) instanceof Fetch.Ready);
            assertThat(onceDown.requests()).isEqualTo(2);
            assertThat(relays.failures()).isEqualTo(1);
        }
    }

    @Test
    void askingNeverWaitsAndAtMostOneFetchOfARoundIsUnderWay() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (FakeRelay slow = new FakeRelay(path -> {
                    release.await(30, TimeUnit.SECONDS);
                    BeaconRound round = beacon.sign(FakeRelay.roundOf(path));
                    return new FakeRelay.Reply(
                            200, "{\"round\":" + round.round() + ",\"signature\":\"" + round.signatureHex() + "\"}");
                });
                DrandRelays relays = new DrandRelays(
                        beacon.chain(),
                        List.of(slow.url()),
                        new DrandRelays.Settings(
                                Duration.ofSeconds(20),
                                Duration.ofSeconds(20),
                                Duration.ofMillis(200),
                                Duration.ofSeconds(5),
                                64),
                        Clock.systemUTC())) {
            long started = System.nanoTime();
            for (int i = 0; i < 100; i++) {
                assertThat(relays.round(1)).isInstanceOf(Fetch.NotYet.class);
            }
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
            await().atMost(PATIENCE).until(() -> slow.requests() == 1);
            assertThat(relays.round(1)).isInstanceOf(Fetch.NotYet.class);
            assertThat(slow.requests()).isEqualTo(1);
            release.countDown();
            await().atMost(PATIENCE).until(() -> relays.round(1) instanceof Fetch.Ready);
            assertThat(slow.requests()).isEqualTo(1);
        } finally {
            release.countDown();
        }
    }

    @Test
    void aRoundNoRelayAnswersForIsUnreachableOnceAMomentHasPassed() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (FakeRelay silent = new FakeRelay(path -> {
                    release.await(30, TimeUnit.SECONDS);
                    return new FakeRelay.Reply(503, "late");
                });
                DrandRelays relays = new DrandRelays(
                        beacon.chain(),
                        List.of(silent.url()),
                        new DrandRelays.Settings(
                                Duration.ofSeconds(20),
                                Duration.ofMillis(300),
                                Duration.ofMillis(200),
                                Duration.ofSeconds(5),
                                64),
                        Clock.systemUTC())) {
            assertThat(relays.round(1)).isInstanceOf(Fetch.NotYet.class); // first asked for now: being fetched
            await().atMost(PATIENCE).until(() -> relays.round(1) instanceof Fetch.Unreachable);
            assertThat(reason(relays.round(1))).isEqualTo("no answer yet from relay " + silent.url());
            assertThat(silent.requests()).isEqualTo(1);
            assertThat(relays.failures()).isZero();
        } finally {
            release.countDown();
        }
    }

    @Test
    void aRecordedRoundIsKeptOnlyIfItVerifies() throws Exception {
        URI down = FakeRelay.downUrl();
        try (DrandRelays relays = new DrandRelays(beacon.chain(), List.of(down), NO_GRACE, Clock.systemUTC());
                DrandRelays quicknet =
                        new DrandRelays(BeaconChain.QUICKNET, List.of(down), NO_GRACE, Clock.systemUTC())) {
            relays.record(beacon.sign(3)); // not even due yet: known from elsewhere, it needs no relay
            assertThat(relays.round(3)).isEqualTo(new Fetch.Ready(beacon.sign(3)));
            relays.record(new BeaconRound(1, beacon.sign(2).signature()));
            await().atMost(PATIENCE).until(() -> relays.round(1) instanceof Fetch.Unreachable);

            quicknet.record(BeaconRoundTest.ROUND_123);
            assertThat(quicknet.round(123)).isEqualTo(new Fetch.Ready(BeaconRoundTest.ROUND_123));
            quicknet.record(new BeaconRound(124, BeaconRoundTest.ROUND_123.signature()));
            await().atMost(PATIENCE).until(() -> quicknet.round(124) instanceof Fetch.Unreachable);
        }
    }

    /** The reason of an unreachable round, else null. */
    static String reason(Fetch fetch) {
        return fetch instanceof Fetch.Unreachable u ? u.reason() : null;
    }

    static String hex(byte[] bytes) {
        return java.util.HexFormat.of().formatHex(bytes);
    }
}
