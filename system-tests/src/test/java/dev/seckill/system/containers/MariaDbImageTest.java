package dev.seckill.system.containers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.UUID;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The MariaDB image's first start is done again when it was cut short. Given a data volume where the first start made
 * the data directory and was stopped before it made the database and its user (the container stopped, or its server
 * slower than the script's wait), when the image starts again on that volume, then the database's user logs in to its
 * database: the services are not refused for good.
 */
@Tag(Podman.CONTAINERS)
class MariaDbImageTest {
    final String name = "seckill-mdb-" + UUID.randomUUID().toString().substring(0, 8);

    @AfterEach
    void removeTheContainerAndItsVolume() throws Exception {
        Podman.podman("rm", "-f", "-t", "0", name);
        Podman.podman("volume", "rm", "-f", name);
    }

    @Test
    void givenAFirstStartCutShortAfterTheDataDirectory_whenTheImageStartsAgain_thenTheUserLogsInToItsDatabase()
            throws Exception {
        String why = Podman.unusable();
        if (why != null) System.out.println("MariaDbImageTest skipped: " + why);
        assumeTrue(why == null, why);
        Images.ensureBuilt();
        String image = "localhost/seckill/mariadb:" + Images.tag();
        String cannot = Podman.cannotRun("seckill/ingress-gateway:" + Images.tag());
        if (cannot != null) System.out.println("MariaDbImageTest skipped: " + cannot);
        assumeTrue(cannot == null, cannot);
        Podman.podman("volume", "create", name).orThrow("podman volume create");
        // Given: what a first start leaves when it is stopped right after mariadb-install-db
        Podman.podman(
                        "run",
                        "--rm",
                        "-v",
                        name + ":/var/lib/mysql",
                        "--entrypoint",
                        "mariadb-install-db",
                        image,
                        "--datadir=/var/lib/mysql",
                        "--auth-root-authentication-method=normal",
                        "--skip-test-db")
                .orThrow("mariadb-install-db in the image");

        // When
        Podman.podman(
                        "run",
                        "-d",
                        "--name",
                        name,
                        "-v",
                        name + ":/var/lib/mysql",
                        "-e",
                        "MARIADB_DATABASE=shop",
                        "-e",
                        "MARIADB_USER=shopper",
                        "-e",
                        "MARIADB_PASSWORD=shopper-pw",
                        "-e",
                        "MARIADB_ROOT_PASSWORD=root-pw",
                        image)
                .orThrow("podman run the mariadb image");

        // Then
        try {
            await("the user shopper logs in to shop over TCP")
                    .atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> login().exit() == 0);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(
                    e.getMessage() + "; last login: " + Podman.tail(login().output()) + "; the server's log: "
                            + Podman.tail(Podman.podman("logs", name).output()),
                    e);
        }
        assertThat(login().trimmed()).as("the user's database").isEqualTo("shop");
    }

    private Podman.Result login() throws Exception {
        return Podman.podman(
                "exec",
                "-e",
                "MYSQL_PWD=shopper-pw",
                name,
                "mariadb",
                "-h127.0.0.1",
                "-ushopper",
                "-N",
                "-s",
                "shop",
                "-e",
                "SELECT DATABASE()");
    }
}
