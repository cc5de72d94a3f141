package dev.seckill.system.containers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The MariaDB image's first start (deploy/images/mariadb/mariadb-node): done again when it was cut short, never over a
 * folder in use or a folder of other files, and with passwords as given, whatever characters they hold.
 */
@Tag(Podman.CONTAINERS)
class MariaDbImageTest {
    static final String DATA = "/var/lib/mysql";

    final String name = "seckill-mdb-" + UUID.randomUUID().toString().substring(0, 8);
    String image;

    @BeforeEach
    void theImage() throws Exception {
        String why = Podman.unusable();
        if (why != null) System.out.println("MariaDbImageTest skipped: " + why);
        assumeTrue(why == null, why);
        Images.ensureBuilt();
        String cannot = Podman.cannotRun("seckill/ingress-gateway:" + Images.tag());
        if (cannot != null) System.out.println("MariaDbImageTest skipped: " + cannot);
        assumeTrue(cannot == null, cannot);
        image = "localhost/seckill/mariadb:" + Images.tag();
        Podman.podman("volume", "create", name).orThrow("podman volume create");
    }

    @AfterEach
    void removeTheContainerAndItsVolume() throws Exception {
        if (image == null) return; // skipped before anything was made
        Podman.podman("rm", "-f", "-t", "0", name);
        Podman.podman("volume", "rm", "-f", name);
    }

    /**
     * Given what a first start leaves when it is stopped right after {@code mariadb-install-db} (no database, no user)
     * on a volume holding root's {@code lost+found}, when the image starts again on that volume, then the user logs in
     * to its database.
     */
    @Test
    void givenAFirstStartCutShortAfterTheDataDirectory_whenTheImageStartsAgain_thenTheUserLogsInToItsDatabase()
            throws Exception {
        onTheVolume(
                "mariadb-install-db",
                "--datadir=" + DATA,
                "--auth-root-authentication-method=normal",
                "--skip-test-db");
        // and root's lost+found, as on a volume that is a filesystem of its own: not the server's to remove
        onTheVolumeAsRoot("sh", "-c", "mkdir -m 700 " + DATA + "/lost+found && touch " + DATA + "/lost+found/#42");

        start("shopper-pw");

        assertThat(awaitLogin("shopper-pw")).as("the user's database").isEqualTo("shop");
    }

    /** Given passwords with a quote, a backslash and a dollar, when the image first starts, then they are as given. */
    @Test
    void givenPasswordsWithQuotesBackslashesAndDollars_whenTheImageFirstStarts_thenTheUserLogsInWithItsOwn()
            throws Exception {
        String password = "it's a \\ $HOME `pw`";

        start(password);

        assertThat(awaitLogin(password)).isEqualTo("shop");
    }

    /**
     * Given a volume in use that an image made before its first start left markers (a table with a row, the markers
     * removed), when the image starts on it, then nothing is made again: the row is there.
     */
    @Test
    void givenAVolumeInUseFromBeforeTheMarkers_whenTheImageStarts_thenItIsKeptAsItIs() throws Exception {
        start("shopper-pw");
        awaitLogin("shopper-pw");
        sql("shopper-pw", "CREATE TABLE kept (id INT PRIMARY KEY); INSERT INTO kept VALUES (42)")
                .orThrow("a table with a row");
        Podman.podman("rm", "-f", "-t", "10", name).orThrow("podman rm");
        onTheVolume("sh", "-c", "rm -f " + DATA + "/.seckill-initialised " + DATA + "/.seckill-initialising");

        start("shopper-pw");

        awaitLogin("shopper-pw");
        assertThat(sql("shopper-pw", "SELECT id FROM kept").trimmed()).isEqualTo("42");
    }

    /**
     * Given a first start of this image's own cut short after it made the database (its beginning's marker there, not
     * its end's), when the image starts again, then it is started over: the user logs in, the half-made table is gone.
     */
    @Test
    void givenAFirstStartOfItsOwnCutShortAfterTheDatabase_whenTheImageStartsAgain_thenItIsStartedOver()
            throws Exception {
        start("shopper-pw");
        awaitLogin("shopper-pw");
        sql("shopper-pw", "CREATE TABLE half (id INT PRIMARY KEY)").orThrow("a table");
        Podman.podman("rm", "-f", "-t", "10", name).orThrow("podman rm");
        onTheVolume("sh", "-c", "rm " + DATA + "/.seckill-initialised && touch " + DATA + "/.seckill-initialising");

        start("shopper-pw");

        assertThat(awaitLogin("shopper-pw")).isEqualTo("shop");
        assertThat(sql("shopper-pw", "SHOW TABLES").trimmed())
                .as("the tables of a start over")
                .isEmpty();
    }

    /** Given a volume of other files (no MariaDB data in it), when the image starts, then it refuses in one line. */
    @Test
    void givenAVolumeOfOtherFiles_whenTheImageStarts_thenItRefusesInOneLineAndTheFilesAreKept() throws Exception {
        onTheVolume("sh", "-c", "echo mine > " + DATA + "/notes.txt");

        Podman.Result run = Podman.podman(
                "run",
                "--rm",
                "-v",
                name + ":" + DATA,
                "-e",
                "MARIADB_DATABASE=shop",
                "-e",
                "MARIADB_PASSWORD=pw",
                "-e",
                "MARIADB_ROOT_PASSWORD=root-pw",
                image);

        assertThat(run.exit()).as(run.output()).isEqualTo(1);
        assertThat(run.trimmed())
                .isEqualTo("mariadb-node: /var/lib/mysql holds files but no MariaDB data (mysql/): not initialising"
                        + " over them");
        assertThat(Podman.podman(
                                "run",
                                "--rm",
                                "-v",
                                name + ":" + DATA,
                                "--entrypoint",
                                "cat",
                                image,
                                DATA + "/notes.txt")
                        .trimmed())
                .isEqualTo("mine");
    }

    private void onTheVolume(String entrypoint, String... args) throws IOException {
        onTheVolume(List.of(), entrypoint, args);
    }

    private void onTheVolumeAsRoot(String entrypoint, String... args) throws IOException {
        onTheVolume(List.of("--user", "0"), entrypoint, args);
    }

    private void onTheVolume(List<String> options, String entrypoint, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("run", "--rm"));
        cmd.addAll(options);
        cmd.addAll(List.of("-v", name + ":" + DATA, "--entrypoint", entrypoint, image));
        cmd.addAll(List.of(args));
        Podman.podman(cmd.toArray(String[]::new)).orThrow(entrypoint + " on the volume");
    }

    private void start(String password) throws IOException {
        Podman.podman(
                        "run",
                        "-d",
                        "--name",
                        name,
                        "-v",
                        name + ":" + DATA,
                        "-e",
                        "MARIADB_DATABASE=shop",
                        "-e",
                        "MARIADB_USER=shopper",
                        "-e",
                        "MARIADB_PASSWORD=" + password,
                        "-e",
                        "MARIADB_ROOT_PASSWORD=root-" + password,
                        image)
                .orThrow("podman run the mariadb image");
    }

    /** Waits until the user logs in over TCP; its database's name. */
    private String awaitLogin(String password) throws Exception {
        try {
            await("the user shopper logs in to shop over TCP")
                    .atMost(Duration.ofMinutes(4))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> sql(password, "SELECT DATABASE()").exit() == 0);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(
                    e.getMessage() + "; last login: "
                            + Podman.tail(sql(password, "SELECT 1").output()) + "; the server's log: "
                            + Podman.tail(Podman.podman("logs", name).output()),
                    e);
        }
        return sql(password, "SELECT DATABASE()").trimmed();
    }

    private Podman.Result sql(String password, String statements) throws IOException {
        return Podman.podman(
                "exec",
                "-e",
                "MYSQL_PWD=" + password,
                name,
                "mariadb",
                "-h127.0.0.1",
                "-ushopper",
                "-N",
                "-s",
                "shop",
                "-e",
                statements);
    }
}
