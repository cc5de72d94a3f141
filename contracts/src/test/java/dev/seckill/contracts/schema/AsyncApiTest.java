package dev.seckill.contracts.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.seckill.contracts.Topics;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code asyncapi.yaml} (in the contracts jar beside the schemas) is a valid AsyncAPI 3.0 document — checked against the
 * specification's own JSON Schema — and describes the pipeline as it is: a channel for every topic {@link Topics}
 * names, every value schema it refers to a file that exists, and the ledger types and command types the schemas have.
 */
class AsyncApiTest {
    static final Path DOCUMENT = Path.of("src", "main", "resources", "dev", "seckill", "contracts", "asyncapi.yaml");

    static String document() throws IOException {
        return Files.readString(DOCUMENT, StandardCharsets.UTF_8);
    }

    @Test
    void theDocumentIsValidAsyncApi3() throws IOException {
        Schema spec;
        try (InputStream in = AsyncApiTest.class.getResourceAsStream("/asyncapi/asyncapi-3.0.0.schema.json")) {
            spec = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7)
                    .getSchema(in);
        }
        List<Error> errors = spec.validate(document(), InputFormat.YAML);
        assertThat(errors).as("asyncapi.yaml against the AsyncAPI 3.0.0 schema").isEmpty();
    }

    @Test
    void aBrokenDocumentIsRefused_soTheCheckCanFail() throws IOException {
        Schema spec;
        try (InputStream in = AsyncApiTest.class.getResourceAsStream("/asyncapi/asyncapi-3.0.0.schema.json")) {
            spec = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7)
                    .getSchema(in);
        }
        String broken = document().replace("    action: receive\n", "    action: consume\n");
        assertThat(spec.validate(broken, InputFormat.YAML)).isNotEmpty();
    }

    @Test
    void everyTopicHasItsChannel_andEveryValueSchemaExists() throws IOException {
        String doc = document();
        List<String> addresses = new ArrayList<>();
        Matcher m = Pattern.compile("address: '\\{prefix}([^']+)'").matcher(doc);
        while (m.find()) addresses.add("{prefix}" + m.group(1));
        assertThat(addresses).containsExactlyInAnyOrderElementsOf(new Topics("{prefix}").all());
        Matcher refs = Pattern.compile("\\$ref: (schema/[a-z0-9._-]+\\.json)").matcher(doc);
        int n = 0;
        for (; refs.find(); n++)
            assertThat(DOCUMENT.resolveSibling(refs.group(1))).as(refs.group(1)).exists();
        assertThat(n)
                .as("the value schemas of commands, outcomes, ledger (v1 and v2), payments and the DLQ headers")
                .isEqualTo(6);
    }
}
