package dev.seckill.stock.draw.beacon;

import dev.seckill.contracts.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/** The beacon sources a deployment can name: {@value #QUICKNET} and {@value #LOCAL}. */
public final class Beacons {
    /** drand's quicknet ({@link BeaconChain#QUICKNET}), its key built in. */
    public static final String QUICKNET = "quicknet";
    /** A {@link LocalBeacon} this deployment runs, its chain read from its relay. */
    public static final String LOCAL = "local";

    private static final Duration INFO_TIMEOUT = Duration.ofSeconds(5);

    private Beacons() {}

    /**
     * The source {@code name}d, over {@code relays}: {@value #QUICKNET} ({@link DrandRelays#QUICKNET_RELAYS} when
     * {@code relays} is empty), or {@value #LOCAL} (its chain read from the first relay that answers, {@link
     * #localChainFrom(URI)}; at least one relay is needed). Anything else is an {@link IllegalArgumentException}.
     */
    public static DrandRelays from(String name, List<URI> relays) {
        Objects.requireNonNull(relays, "relays");
        if (QUICKNET.equals(name)) {
            return new DrandRelays(BeaconChain.QUICKNET, relays.isEmpty() ? DrandRelays.QUICKNET_RELAYS : relays);
        }
        if (LOCAL.equals(name)) {
            if (relays.isEmpty()) throw new IllegalArgumentException("the local beacon needs its URL: none given");
            List<String> reasons = new ArrayList<>();
            for (URI relay : relays) {
                try {
                    return new DrandRelays(localChainFrom(relay), relays);
                } catch (UncheckedIOException e) {
                    reasons.add(e.getMessage());
                }
            }
            throw new IllegalStateException("no local beacon answered: " + String.join("; ", reasons));
        }
        throw new IllegalArgumentException("unknown beacon \"" + name + "\": expected " + QUICKNET + " or " + LOCAL);
    }

    /**
     * The chain a {@link LocalBeacon} serves at {@code <relay>/info}, rebuilt with {@link BeaconChain#local} from the
     * key, genesis and period it states; the hash it states must be the one they make.
     *
     * @throws UncheckedIOException the relay did not answer, or not with HTTP 200
     * @throws IllegalStateException it answered something else than a local chain's info, or a hash that is not its
     *     chain's
     */
    public static BeaconChain localChainFrom(URI relay) {
        URI info = URI.create(RelayFetcher.base(relay) + "/info");
        HttpResponse<byte[]> response;
        try {
            HttpClient http =
                    HttpClient.newBuilder().connectTimeout(INFO_TIMEOUT).build();
            response = http.send(
                    HttpRequest.newBuilder(info).timeout(INFO_TIMEOUT).GET().build(),
                    HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException("relay " + relay + " unreachable: " + RelayFetcher.describe(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException("interrupted while asking " + info, new IOException(e));
        }
        if (response.statusCode() != 200) {
            throw new UncheckedIOException(
                    "relay " + relay + " answered HTTP " + response.statusCode() + " for " + info,
                    new IOException("HTTP " + response.statusCode()));
        }
        DrandJson.Info stated;
        BeaconChain chain;
        try {
            stated = Json.read(response.body(), DrandJson.Info.class);
            if (!BeaconChain.SCHEME.equals(stated.schemeId())) {
                throw new IllegalArgumentException("scheme " + stated.schemeId() + ", not " + BeaconChain.SCHEME);
            }
            if (stated.period() < 1 || stated.period() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("a period of " + stated.period() + " s");
            }
            chain = BeaconChain.local(
                    HexFormat.of().parseHex(stated.publicKey()), stated.genesisTime(), (int) stated.period());
        } catch (UncheckedIOException | IllegalArgumentException | NullPointerException e) {
            throw new IllegalStateException(
                    "relay " + relay + " serves no local beacon chain at " + info + ": " + e.getMessage());
        }
        if (!chain.hash().equals(stated.hash())) {
            throw new IllegalStateException("relay " + relay + " states chain hash " + stated.hash()
                    + " but its key, genesis and period make " + chain.hash());
        }
        return chain;
    }
}
