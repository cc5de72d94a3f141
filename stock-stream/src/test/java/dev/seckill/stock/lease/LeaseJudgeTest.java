package dev.seckill.stock.lease;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Which peers a lapsed lease drops from the group, and what never drops one. */
@Tag("fast")
class LeaseJudgeTest {
    static final long GRACE = 200;
    final LeaseJudge judge = new LeaseJudge("a", GRACE);

    @Test
    void givenAPeerWhoseLeaseLapsed_whenItStaysMissingForTheGrace_thenItIsDroppedOnce() {
        Set<String> members = Set.of("a", "b");
        assertThat(judge.judge(0, members, Set.of("a", "b"), true)).isEmpty();
        assertThat(judge.judge(100, members, Set.of("a"), true))
                .as("missing from now")
                .isEmpty();
        assertThat(judge.judge(200, members, Set.of("a"), true))
                .as("not yet the grace")
                .isEmpty();
        assertThat(judge.judge(300, members, Set.of("a"), true)).containsExactly("b");
        assertThat(judge.judge(400, members, Set.of("a"), true))
                .as("dropped once: a member still listed is not removed again")
                .isEmpty();
        assertThat(judge.leasedPeers()).isEmpty();
    }

    @Test
    void givenAPeerWhoseConnectionClosed_itIsDroppedAtOnce_itsLeaseStillHeld() {
        Set<String> members = Set.of("a", "b");
        assertThat(judge.judge(0, members, Set.of("a", "b"), true)).isEmpty();
        assertThat(judge.judgeVanished(100, members, Set.of("b"), true))
                .as("its process ended: no grace, no waiting for the lease")
                .containsExactly("b");
        assertThat(judge.judgeVanished(150, members, Set.of("b"), true))
                .as("dropped once")
                .isEmpty();
    }

    @Test
    void aClosedConnectionDropsNothingWhereTheLeaseWouldNot() {
        Set<String> members = Set.of("a", "b", "c");
        assertThat(judge.judge(0, members, Set.of("a", "b"), true)).isEmpty();
        assertThat(judge.judgeVanished(100, members, Set.of("c"), true))
                .as("a peer never seen holding a lease")
                .isEmpty();
        assertThat(judge.judgeVanished(200, members, Set.of("b"), false))
                .as("this instance's own renewal failed: Redis is not read as the truth")
                .isEmpty();
        judge.redisForgot(300, 500);
        assertThat(judge.judgeVanished(400, members, Set.of("b"), true))
                .as("Redis lost its memory a moment ago")
                .isEmpty();
        assertThat(judge.judgeVanished(900, Set.of("a", "c"), Set.of("b"), true))
                .as("no longer a member")
                .isEmpty();
        assertThat(judge.judgeVanished(1_000, members, Set.of("a"), true))
                .as("never this instance")
                .isEmpty();
    }

    @Test
    void aPeerThatHeldNoLeaseIsNeverDropped_norIsThisInstance() {
        Set<String> members = Set.of("a", "old");
        for (long t = 0; t < 2_000; t += 100)
            assertThat(judge.judge(t, members, Set.of(), true))
                    .as("an instance running without leases, and this one")
                    .isEmpty();
    }

    @Test
    void aWatchWhoseOwnRenewalFailedJudgesNothing_andStartsEveryAbsenceAgain() {
        Set<String> members = Set.of("a", "b");
        judge.judge(0, members, Set.of("a", "b"), true);
        judge.judge(100, members, Set.of("a"), true);
        // Redis restarted empty: every lease is missing, this instance's too; nothing is judged
        assertThat(judge.judge(200, members, Set.of(), false)).isEmpty();
        assertThat(judge.judge(300, members, Set.of(), false)).isEmpty();
        assertThat(judge.judge(400, members, Set.of("a"), true))
                .as("the absence counts from the first watch Redis could answer")
                .isEmpty();
        assertThat(judge.judge(500, members, Set.of("a", "b"), true))
                .as("renewed: forgiven")
                .isEmpty();
        assertThat(judge.judge(900, members, Set.of("a"), true)).isEmpty();
        assertThat(judge.judge(1_100, members, Set.of("a"), true)).containsExactly("b");
    }

    @Test
    void aPausedPeerBackWithinTheGraceIsForgiven_aRestartedOneIsJudgedAfresh() {
        Set<String> members = Set.of("a", "b");
        judge.judge(0, members, Set.of("a", "b"), true);
        judge.judge(100, members, Set.of("a"), true);
        assertThat(judge.judge(200, members, Set.of("a", "b"), true)).isEmpty();
        assertThat(judge.judge(350, members, Set.of("a"), true)).isEmpty();
        assertThat(judge.judge(450, members, Set.of("a"), true))
                .as("missing since 350")
                .isEmpty();
        assertThat(judge.judge(550, members, Set.of("a"), true)).containsExactly("b");
        // its restart holds a lease again, then dies again
        judge.judge(600, members, Set.of("a", "b"), true);
        judge.judge(700, members, Set.of("a"), true);
        assertThat(judge.judge(900, members, Set.of("a"), true)).containsExactly("b");
    }

    @Test
    void whenRedisLostItsMemory_nothingIsJudgedForTheQuietTime_thenAbsencesCountAfresh() {
        Set<String> members = Set.of("a", "b");
        judge.judge(0, members, Set.of("a", "b"), true);
        judge.judge(100, members, Set.of("a"), true); // b's lease missing: Redis restarted empty
        judge.redisForgot(150, 800);
        for (long t = 200; t < 950; t += 100)
            assertThat(judge.judge(t, members, Set.of("a"), true))
                    .as("b reconnects and renews meanwhile: not judged at %d", t)
                    .isEmpty();
        assertThat(judge.judge(1_000, members, Set.of("a"), true))
                .as("absent from the first watch after")
                .isEmpty();
        assertThat(judge.judge(1_200, members, Set.of("a"), true)).containsExactly("b");
    }

    @Test
    void aPeerWhoseRemovalFailedIsJudgedAgain() {
        Set<String> members = Set.of("a", "b");
        judge.judge(0, members, Set.of("a", "b"), true);
        judge.judge(100, members, Set.of("a"), true);
        assertThat(judge.judge(300, members, Set.of("a"), true)).containsExactly("b");
        judge.removalFailed("b");
        assertThat(judge.judge(400, members, Set.of("a"), true)).isEmpty();
        assertThat(judge.judge(600, members, Set.of("a"), true)).containsExactly("b");
    }

    @Test
    void aMemberGoneFromTheGroupIsForgotten() {
        judge.judge(0, Set.of("a", "b"), Set.of("a", "b"), true);
        judge.judge(100, Set.of("a", "b"), Set.of("a"), true);
        assertThat(judge.judge(400, Set.of("a"), Set.of("a"), true))
                .as("its session ended first: nothing to remove")
                .isEmpty();
    }

    @Test
    void aThreadsStaticMemberIdNamesItsInstance() {
        assertThat(LeaseJudge.instanceOf("stock-stream-0-1")).isEqualTo("stock-stream-0");
        assertThat(LeaseJudge.instanceOf("host-9402-12")).isEqualTo("host-9402");
        assertThat(LeaseJudge.instanceOf("plain")).isEqualTo("plain");
    }
}
