package dev.seckill.stock.draw.beacon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.contracts.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local beacon signs as quicknet does, serves drand's API, and is the same chain after a restart. */
@Tag("fast")
class LocalBeaconTest {
    static final HexFormat HEX = HexFormat.of();
    static final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void itsRoundsVerifyAndTheirRandomnessIsTheHashOfTheSignature() throws Exception {
        try (LocalBeacon beacon = LocalBeacon.start(dir.resolve("key.json"), 0, 1)) {
            BeaconRound five = beacon.sign(5);
            assertThat(five.round()).isEqualTo(5);
            assertThat(five.signature()).hasSize(48);
            assertThat(five.verifies(beacon.chain())).isTrue();
            assertThat(five.randomness())
                    .isEqualTo(MessageDigest.getInstance("SHA-256").digest(five.signature()));
            assertThat(new BeaconRound(6, five.signature()).verifies(beacon.chain()))
                    .isFalse();
            assertThat(five.verifies(BeaconChain.QUICKNET)).isFalse();
            assertThat(beacon.sign(5)).isEqualTo(five); // BLS signatures are deterministic
            assertThat(beacon.chain().periodSeconds()).isEqualTo(1);
        }
    }

    @Test
    void itServesDrandsApi() throws Exception {
        try (LocalBeacon beacon = LocalBeacon.start(dir.resolve("key.json"), 0, 1)) {
            BeaconChain chain = beacon.chain();
            String base = beacon.url() + "/" + chain.hash();

            Answer first = get(base + "/public/1");
            assertThat(first.status()).isEqualTo(200);
            JsonNode round = Json.MAPPER.readTree(first.body());
            assertThat(round.get("round").asLong()).isEqualTo(1);
            assertThat(round.get("signature").asText()).isEqualTo(beacon.sign(1).signatureHex());
            assertThat(round.get("randomness").asText())
                    .isEqualTo(HEX.formatHex(beacon.sign(1).randomness()));

            long before = chain.roundAt(System.currentTimeMillis());
            JsonNode latest = Json.MAPPER.readTree(get(base + "/public/latest").body());
            long after = chain.roundAt(System.currentTimeMillis());
            assertThat(latest.get("round").asLong()).isBetween(before, after);
            assertThat(new BeaconRound(
                                    latest.get("round").asLong(),
                                    HEX.parseHex(latest.get("signature").asText()))
                            .verifies(chain))
                    .isTrue();

            Answer future = get(base + "/public/" + (chain.roundAt(System.currentTimeMillis()) + 1_000));
            assertThat(future.status()).isEqualTo(425);
            assertThat(future.body()).contains("is due at");
            assertThat(get(beacon.url() + "/" + "0".repeat(64) + "/public/1").status())
                    .isEqualTo(404);
            assertThat(get(base + "/public/zero").status()).isEqualTo(400);

            for (String info : new String[] {"/info", "/" + chain.hash() + "/info"}) {
                JsonNode served = Json.MAPPER.readTree(get(beacon.url() + info).body());
                assertThat(served.get("hash").asText()).isEqualTo(chain.hash());
                assertThat(served.get("public_key").asText()).isEqualTo(chain.publicKeyHex());
                assertThat(served.get("period").asInt()).isEqualTo(1);
                assertThat(served.get("genesis_time").asLong()).isEqualTo(chain.genesisSeconds());
                assertThat(served.get("schemeID").asText()).isEqualTo("bls-unchained-g1-rfc9380");
                assertThat(served.get("metadata").get("beaconID").asText()).isEqualTo("local");
            }
            assertThat(Beacons.localChainFrom(beacon.url())).isEqualTo(chain);
        }
    }

    @Test
    void aRestartedBeaconWithTheSameKeyFileIsTheSameChain() throws Exception {
        Path keyFile = dir.resolve("beacon").resolve("key.json");
        BeaconChain chain;
        BeaconRound seven;
        try (LocalBeacon beacon = LocalBeacon.start(keyFile, 0, 1)) {
            chain = beacon.chain();
            seven = beacon.sign(7);
        }
        assertThat(Files.getPosixFilePermissions(keyFile)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        try (LocalBeacon again = LocalBeacon.start(keyFile, 0, 1);
                LocalBeacon withItsPeriod = LocalBeacon.start(keyFile, 0)) {
            assertThat(again.chain()).isEqualTo(chain);
            assertThat(again.chain().hash()).isEqualTo(chain.hash());
            assertThat(again.sign(7)).isEqualTo(seven);
            assertThat(withItsPeriod.chain()).isEqualTo(chain);
            assertThat(Beacons.localChainFrom(again.url())).isEqualTo(chain);
        }
        try (LocalBeacon other = LocalBeacon.start(dir.resolve("other.json"), 0, 1)) {
            assertThat(other.chain().hash()).isNotEqualTo(chain.hash());
            assertThat(other.sign(7)).isNotEqualTo(seven);
        }
    }

    @Test
    void aKeyFileOfAnotherPeriodOrNotAKeyIsRefusedInWords() throws Exception {
        Path keyFile = dir.resolve("key.json");
        LocalBeacon.start(keyFile, 0, 1).close();
        assertThatThrownBy(() -> LocalBeacon.start(keyFile, 0, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(keyFile.toString())
                .hasMessageContaining("1 s period, not 3 s");
        Path garbage = Files.writeString(dir.resolve("garbage.json"), "{\"secret_key\":\"zz\"}");
        assertThatThrownBy(() -> LocalBeacon.start(garbage, 0, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not a local beacon's key");
        Path zero = Files.writeString(
                dir.resolve("zero.json"),
                "{\"secret_key\":\"" + "0".repeat(64) + "\",\"genesis_time\":1,\"period\":1}");
        assertThatThrownBy(() -> LocalBeacon.start(zero, 0, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no usable secret key");
    }

    record Answer(int status, String body) {}

    static Answer get(String url) throws Exception {
        HttpResponse<String> response =
                http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(response.statusCode(), response.body());
    }
}
