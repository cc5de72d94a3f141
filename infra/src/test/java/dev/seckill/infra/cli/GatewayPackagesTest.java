package dev.seckill.infra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The ingress gateway's packages by job, held by the build (docs/architecture.md): its root package holds the app's
 * assembly only, a fixed list; the purchase path is {@code door/}, what it learns from the topics {@code readside/},
 * its warm-up {@code warmup/}, the status reads {@code status/}, the payment provider's route {@code payment/}. A class
 * dropped in the root, or moved out of its family's package, fails here.
 */
@Tag("fast")
class GatewayPackagesTest {
    static final Path GATEWAY = CodeShapeTest.ROOT.resolve("ingress-gateway/src/main/java/dev/seckill/gateway");

    /** What the root package holds: the app's assembly (others import {@code GatewayApp}, {@code GatewaySettings}). */
    static final Set<String> ASSEMBLY = Set.of(
            "GatewayApp",
            "GatewaySettings",
            "GatewayWiring",
            "GatewayKeys",
            "HttpListeners",
            "AdminPort",
            "HealthRoute");

    /** The gateway's packages under its root, each a job. */
    static final Set<String> PACKAGES =
            Set.of("auth", "door", "http", "limit", "payment", "readside", "status", "warmup");

    /** Each family's classes and the package they live in. */
    static final Map<String, List<String>> FAMILIES = Map.of(
            "door",
            List.of(
                    "PurchaseRoute",
                    "PurchaseIntake",
                    "PurchaseRequest",
                    "Door",
                    "DoorFacts",
                    "RecentIds",
                    "SaleBuckets",
                    "SaleWindows",
                    "SoldOutMarks",
                    "WindowLanes",
                    "WaitingDraws"),
            "readside",
            List.of("OutcomeView", "DrawWindows", "DrawWindowsBackfill"),
            "warmup",
            List.of("GatewayWarmup", "WarmupLoad", "WarmupReadSide"),
            "auth",
            List.of("BuyerTokens"),
            "status",
            List.of("StatusRoute", "StatusReads", "PurchasesListRoute"),
            "payment",
            List.of("PaymentRoute"));

    @Test
    void theRootHoldsTheAssemblyOnly_andEveryFamilyIsInItsPackage() throws IOException {
        List<String> rootClasses = new ArrayList<>();
        Set<String> packages = new TreeSet<>();
        try (var entries = Files.list(GATEWAY)) {
            for (Path p : entries.toList()) {
                String name = p.getFileName().toString();
                if (Files.isDirectory(p)) packages.add(name);
                else if (name.endsWith(".java")) rootClasses.add(name.substring(0, name.length() - ".java".length()));
            }
        }
        assertThat(rootClasses).as("classes in the gateway's root package").contains("GatewayApp");
        assertThat(loose(rootClasses))
                .as("classes in the gateway's root package that are not its assembly (give them their job's package)")
                .isEmpty();
        assertThat(packages).as("the gateway's packages").isEqualTo(new TreeSet<>(PACKAGES));
        List<String> misplaced = new ArrayList<>();
        FAMILIES.forEach((pkg, classes) -> classes.forEach(c -> {
            if (!Files.isRegularFile(GATEWAY.resolve(pkg).resolve(c + ".java"))) misplaced.add(c + " not in " + pkg);
        }));
        assertThat(misplaced).as("classes out of their family's package").isEmpty();
    }

    /** The classes of the root package that are not on the assembly's list. */
    static List<String> loose(List<String> rootClasses) {
        return rootClasses.stream().filter(c -> !ASSEMBLY.contains(c)).sorted().toList();
    }

    @Test
    void theRootRuleRefusesWhatItShould() {
        assertThat(loose(List.of("GatewayApp", "HealthRoute"))).isEmpty();
        assertThat(loose(List.of("GatewayApp", "Door", "OutcomeView"))).containsExactly("Door", "OutcomeView");
        assertThat(FAMILIES.values().stream().flatMap(List::stream).filter(ASSEMBLY::contains))
                .as("no family class is on the assembly's list")
                .isEmpty();
    }
}
