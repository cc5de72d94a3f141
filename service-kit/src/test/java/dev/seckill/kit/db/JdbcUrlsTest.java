package dev.seckill.kit.db;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** TLS is dropped (and public-key retrieval allowed) for loopback servers only; a remote server keeps the driver's defaults. */
@Tag("fast")
class JdbcUrlsTest {

    @Test
    void loopbackHostsGetNoTlsAndKeyRetrieval() {
        for (String url : new String[] {
            "jdbc:mysql://127.0.0.1:3306/seckill?createDatabaseIfNotExist=true",
            "jdbc:mysql://localhost/seckill",
            "jdbc:mysql://[::1]:3306/seckill",
            "jdbc:mysql://127.0.0.2:3307,localhost:3306/s"
        }) {
            assertThat(JdbcUrls.withDriverDefaults(url))
                    .as(url)
                    .contains("sslMode=DISABLED")
                    .contains("allowPublicKeyRetrieval=true")
                    .contains("rewriteBatchedStatements=true");
        }
        assertThat(JdbcUrls.withDriverDefaults("jdbc:mysql://127.0.0.1:3306/seckill?createDatabaseIfNotExist=true"))
                .startsWith("jdbc:mysql://127.0.0.1:3306/seckill?createDatabaseIfNotExist=true&");
    }

    @Test
    void remoteHostsKeepTheDriversTlsDefaults() {
        for (String url : new String[] {
            "jdbc:mysql://db.internal:3306/seckill",
            "jdbc:mysql://10.0.0.7/seckill?useUnicode=true",
            "jdbc:mysql://127.0.0.1:3306,db.internal:3306/seckill",
            "jdbc:mysql://127.evil.example/seckill",
            "jdbc:mysql://localhost.example.com/seckill",
            "jdbc:mysql://address=(host=localhost)(port=3306)/s"
        }) {
            String built = JdbcUrls.withDriverDefaults(url);
            assertThat(built)
                    .as(url)
                    .doesNotContain("sslMode")
                    .doesNotContain("allowPublicKeyRetrieval")
                    .contains("rewriteBatchedStatements=true")
                    .contains("connectionTimeZone=UTC");
        }
    }

    @Test
    void whatTheUrlSaysItselfIsKept() {
        String url = "jdbc:mysql://db.internal/seckill?sslMode=VERIFY_IDENTITY&rewriteBatchedStatements=false";
        String built = JdbcUrls.withDriverDefaults(url);
        assertThat(built)
                .contains("sslMode=VERIFY_IDENTITY")
                .doesNotContain("sslMode=DISABLED")
                .contains("rewriteBatchedStatements=false")
                .doesNotContain("rewriteBatchedStatements=true");
        assertThat(JdbcUrls.withDriverDefaults("jdbc:mysql://127.0.0.1/s?sslMode=REQUIRED"))
                .doesNotContain("sslMode=DISABLED");
    }

    @Test
    void withoutDatabaseCreationDropsOnlyThatParameter() {
        assertThat(JdbcUrls.withoutDatabaseCreation("jdbc:mysql://h/db?createDatabaseIfNotExist=true"))
                .isEqualTo("jdbc:mysql://h/db");
        assertThat(JdbcUrls.withoutDatabaseCreation(
                        "jdbc:mysql://h/db?sslMode=VERIFY_IDENTITY&createDatabaseIfNotExist=true&a=b"))
                .isEqualTo("jdbc:mysql://h/db?sslMode=VERIFY_IDENTITY&a=b");
        assertThat(JdbcUrls.withoutDatabaseCreation("jdbc:mysql://h/db?createDatabaseIfNotExist=true&a=b"))
                .isEqualTo("jdbc:mysql://h/db?a=b");
        assertThat(JdbcUrls.withoutDatabaseCreation("jdbc:mysql://h/db")).isEqualTo("jdbc:mysql://h/db");
    }
}
