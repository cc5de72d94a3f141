package dev.seckill.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.stack.KafkaBroker;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;

/**
 * The suite's last check (system-tests' {@code leftovers} execution after every module's tests: at {@code verify} in one
 * reactor, once the lanes have ended in {@code ./seckill test}):
 * no test left a database or Redis keys behind on the machine's servers. It fails naming each one.
 *
 * <p>What counts as a test's: a database {@code seckill_*} on the tests' server ({@code SECKILL_TEST_DB_SERVER}, else
 * 127.0.0.1:3306), and Redis keys under a prefix shaped as the tests make theirs (a word and a random hex suffix,
 * {@code test-1a2b3c4d:}, {@code e2e-1a2b3c4d:}). Never what the user's own stack legitimately holds: the live
 * namespace ({@code seckill} database, {@code seckill:} keys) and the namespaces of the user's commands ({@code demo-},
 * {@code bench-}, {@code chaos-}, {@code drill-}, {@code strat-<date>}; {@code ./seckill namespaces} lists them,
 * {@code ./seckill clean --namespace} removes one). Topics of test namespaces on the stack's broker are listed too,
 * as a warning (they do not fail the check).
 *
 * <p>A namespace named like a user command's but made during this build (its tables all created, its keys all
 * touched, after the build started) is a test's — tests run the commands too (a drill, a chaos run) — and fails it as
 * well; a user who runs a command on the same servers while the suite runs skips the check for that run.
 *
 * <p>Only what this build left fails it: a database whose tables were all created before the build started
 * ({@code seckill.build.started}: Maven's build timestamp, or the suite's start that {@code ./seckill test} passes)
 * and Redis keys idle since before it are an earlier run's, listed as a warning. It reads the servers as they are at the end: a test JVM of another build running at the same
 * moment can have a namespace open; {@code -Dseckill.leftovers.skip=true} skips the check for such a run, and
 * {@code -Dseckill.leftovers.remove=true} removes what it names (it still fails, so the run that left them is seen).
 */
class LeftoversCheck {
    /** Names the tests give their namespaces: a word (or several) and a random hex suffix from a UUID. */
    static final Pattern TEST_NAME = Pattern.compile("[a-z][a-z0-9_-]*[-_][0-9a-f]{6,8}");

    /** The namespaces of the user's own commands (demo, benchmarks, chaos, drills, strategies), never a test's. */
    static final Pattern USERS = Pattern.compile("(demo|bench|chaos|drill)[-_].*|strat[-_]\\d.*");

    static final String DB_SERVER =
            Optional.ofNullable(System.getenv("SECKILL_TEST_DB_SERVER")).orElse("jdbc:mysql://127.0.0.1:3306");
    static final String REDIS_URL =
            Optional.ofNullable(System.getenv("SECKILL_REDIS_URL")).orElse("redis://127.0.0.1:6379");
    static final boolean REMOVE = Boolean.getBoolean("seckill.leftovers.remove");
    /** When this build started (Maven's build timestamp, UTC); unknown (everything is this build's) when not set. */
    static final Instant STARTED = Optional.ofNullable(System.getProperty("seckill.build.started"))
            .filter(t -> !t.isBlank())
            .map(Instant::parse)
            .orElse(Instant.EPOCH);

    static boolean testNamespace(String name) {
        return !USERS.matcher(name).matches() && TEST_NAME.matcher(name).matches();
    }

    /** A test database: any {@code seckill_*} but the live one and the user's commands'. */
    static boolean testDatabase(String db) {
        return db.startsWith("seckill_")
                && !USERS.matcher(db.substring("seckill_".length())).matches();
    }

    @Test
    void noTestLeftADatabaseOrRedisKeysBehind() throws Exception {
        List<String> left = new ArrayList<>();
        List<String> earlier = new ArrayList<>();
        databases(left, earlier);
        redisKeys(left, earlier);
        if (!earlier.isEmpty())
            System.err.println("leftovers (warning): left by an earlier run, before this build started at " + STARTED
                    + ": " + earlier);
        topicsWarning();
        assertThat(left)
                .as("left behind by the tests (each test removes its namespace: topics, keys, database; "
                        + (REMOVE ? "removed now" : "-Dseckill.leftovers.remove=true removes them") + ")")
                .isEmpty();
    }

    static void databases(List<String> left, List<String> earlier) throws Exception {
        List<String> mine = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(DB_SERVER + "/?sslMode=DISABLED", "root", "");
                Statement st = c.createStatement()) {
            List<String> tests = new ArrayList<>();
            List<String> users = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SHOW DATABASES LIKE 'seckill\\_%'")) {
                while (rs.next()) {
                    String db = rs.getString(1);
                    if (testDatabase(db)) tests.add(db);
                    else if (USERS.matcher(db.substring("seckill_".length())).matches()) users.add(db);
                }
            }
            for (String db : tests) {
                if (createdBefore(c, db, STARTED)) earlier.add("database " + db);
                else mine.add(db);
            }
            if (!STARTED.equals(Instant.EPOCH)) for (String db : users) if (createdSince(c, db, STARTED)) mine.add(db);
            if (REMOVE) for (String db : mine) st.execute("DROP DATABASE IF EXISTS `" + db + "`");
        }
        mine.forEach(db -> left.add("database " + db));
    }

    /** Whether every table of {@code db} was created before {@code started} (a database without tables: not known). */
    static boolean createdBefore(Connection c, String db, Instant started) throws Exception {
        try (var ps = c.prepareStatement(
                "SELECT MAX(UNIX_TIMESTAMP(CREATE_TIME)) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?")) {
            ps.setString(1, db);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || rs.getObject(1) == null) return false;
                return rs.getLong(1) < started.getEpochSecond();
            }
        }
    }

    /** Whether every table of {@code db} was created at or after {@code started} (a database without tables: no). */
    static boolean createdSince(Connection c, String db, Instant started) throws Exception {
        try (var ps = c.prepareStatement(
                "SELECT MIN(UNIX_TIMESTAMP(CREATE_TIME)) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?")) {
            ps.setString(1, db);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || rs.getObject(1) == null) return false;
                return rs.getLong(1) >= started.getEpochSecond();
            }
        }
    }

    static void redisKeys(List<String> left, List<String> earlier) {
        Map<String, Integer> mine = new TreeMap<>();
        Map<String, Integer> before = new TreeMap<>();
        Map<String, Integer> userKeys = new TreeMap<>();
        Map<String, Integer> userOld = new TreeMap<>();
        long sinceStart = Math.max(0, (System.currentTimeMillis() - STARTED.toEpochMilli()) / 1000);
        try (RedisClient redis = RedisClient.create(URI.create(REDIS_URL))) {
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                var page = redis.scan(cursor, new ScanParams().count(1000));
                for (String key : page.getResult()) {
                    int colon = key.indexOf(':');
                    if (colon <= 0) continue;
                    String ns = key.substring(0, colon);
                    boolean old = idleSeconds(redis, key) > sinceStart;
                    if (testNamespace(ns)) (old ? before : mine).merge(ns + ":", 1, Integer::sum);
                    else if (!STARTED.equals(Instant.EPOCH) && USERS.matcher(ns).matches())
                        (old ? userOld : userKeys).merge(ns + ":", 1, Integer::sum);
                }
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
            // a user-shaped prefix is a test's only when none of its keys predates the build
            userKeys.forEach((prefix, n) -> {
                if (!userOld.containsKey(prefix)) mine.put(prefix, n);
            });
            if (REMOVE) mine.keySet().forEach(prefix -> unlink(redis, prefix));
        }
        mine.forEach((prefix, n) -> left.add(n + " Redis keys " + prefix + "*"));
        before.forEach((prefix, n) -> earlier.add(n + " Redis keys " + prefix + "*"));
    }

    /** Seconds since the key was last written or read; 0 (this build's) when Redis cannot tell (an LFU policy). */
    private static long idleSeconds(RedisClient redis, String key) {
        try {
            Long idle = redis.objectIdletime(key);
            return idle == null ? 0 : idle;
        } catch (RuntimeException e) {
            return 0;
        }
    }

    private static void unlink(RedisClient redis, String prefix) {
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            var page = redis.scan(cursor, new ScanParams().match(prefix + "*").count(1000));
            if (!page.getResult().isEmpty()) redis.unlink(page.getResult().toArray(String[]::new));
            cursor = page.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    }

    /** Topics of test namespaces on the stack's broker ({@code SECKILL_KAFKA_BOOTSTRAP}), printed, not failed on. */
    static void topicsWarning() throws Exception {
        String bootstrap = System.getenv("SECKILL_KAFKA_BOOTSTRAP");
        if (bootstrap == null || bootstrap.isBlank() || !KafkaBroker.answersMetadata(bootstrap)) return;
        Map<String, Integer> byNamespace = new TreeMap<>();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            for (String t : admin.listTopics().names().get(30, TimeUnit.SECONDS)) {
                int dot = t.indexOf('.');
                if (dot > 0 && testNamespace(t.substring(0, dot)))
                    byNamespace.merge(t.substring(0, dot), 1, Integer::sum);
            }
        }
        if (!byNamespace.isEmpty())
            System.err.println("leftovers (warning): topics of test namespaces on " + bootstrap + ": " + byNamespace);
    }
}
