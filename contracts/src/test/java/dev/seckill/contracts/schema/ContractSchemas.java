package dev.seckill.contracts.schema;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The contract's JSON Schemas, loaded from the classpath (they ship in the contracts jar under
 * {@code dev/seckill/contracts/schema/}); their {@code $id}s are mapped there, so nothing is fetched from the network.
 * Format assertions are on: {@code "format": "date-time"} is checked, not only annotated.
 */
public final class ContractSchemas {
    public static final String ID_PREFIX = "https://seckill.dev/contracts/schema/";
    public static final String CLASSPATH = "classpath:dev/seckill/contracts/schema/";

    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(
            SpecificationVersion.DRAFT_2020_12,
            b -> b.schemaIdResolvers(r -> r.mapPrefix(ID_PREFIX, CLASSPATH))
                    .schemaRegistryConfig(SchemaRegistryConfig.builder()
                            .formatAssertionsEnabled(true)
                            .build()));
    private static final Map<String, Schema> SCHEMAS = new ConcurrentHashMap<>();

    private ContractSchemas() {}

    /** The schema of one file, e.g. {@code command.json}. */
    public static Schema schema(String file) {
        return SCHEMAS.computeIfAbsent(file, f -> {
            Schema s = REGISTRY.getSchema(SchemaLocation.of(ID_PREFIX + f));
            s.initializeValidators(); // resolve every $ref now: a broken reference fails here, not on the first event
            return s;
        });
    }

    /** The violations of one event (UTF-8 JSON) against a schema file; empty when it conforms. */
    public static List<Error> violations(String file, byte[] json) {
        return schema(file).validate(new String(json, StandardCharsets.UTF_8), InputFormat.JSON);
    }

    /** The violations of a schema document against the draft 2020-12 meta-schema (bundled with the validator). */
    public static List<Error> metaSchemaViolations(String schemaJson) {
        return REGISTRY.getSchema(SchemaLocation.of(SpecificationVersion.DRAFT_2020_12.getDialectId()))
                .validate(schemaJson, InputFormat.JSON);
    }

    /**
     * The schema file of a ledger entry's version: {@code ledger-entry.json} for v2 (a bucketed goods'),
     * {@code ledger-entry.v1.json} otherwise.
     */
    public static String ledgerSchemaOf(byte[] json) {
        return new String(json, StandardCharsets.UTF_8).startsWith("{\"v\":2,")
                ? "ledger-entry.json"
                : "ledger-entry.v1.json";
    }

    public static List<Error> violations(String file, String json) {
        return schema(file).validate(json, InputFormat.JSON);
    }
}
