package dev.seckill.stock.draw.beacon;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/** The JSON bodies of drand's HTTP API that this package reads and serves, and the local beacon's key file. */
final class DrandJson {
    private DrandJson() {}

    /**
     * {@code GET /<chain hash>/public/<round>}: the round, its randomness ({@code SHA-256(signature)}) and signature,
     * in hex.
     */
    record Round(
            @JsonProperty("round") long round,
            @JsonProperty("randomness") String randomness,
            @JsonProperty("signature") String signature) {}

    /** {@code GET /<chain hash>/info} (and {@code /info}): what a client needs to verify the chain's rounds. */
    record Info(
            @JsonProperty("public_key") String publicKey,
            @JsonProperty("period") long period,
            @JsonProperty("genesis_time") long genesisTime,
            @JsonProperty("hash") String hash,
            @JsonProperty("schemeID") String schemeId,
            @JsonProperty("metadata") Map<String, String> metadata) {}

    /** A {@link LocalBeacon}'s key file: its secret key (the scalar, big-endian hex), genesis and period in seconds. */
    record KeyFile(
            @JsonProperty("secret_key") String secretKey,
            @JsonProperty("genesis_time") long genesisTime,
            @JsonProperty("period") int period) {}
}
