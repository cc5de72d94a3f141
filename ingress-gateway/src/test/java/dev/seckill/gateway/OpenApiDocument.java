package dev.seckill.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.OpenApi31;
import dev.seckill.contracts.Json;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The gateway's OpenAPI 3.1 document as a checker of real exchanges: an answer must be one its operation documents —
 * the status, the media type, the body against the response's schema (networknt's validator in the OpenAPI 3.1
 * dialect, every {@code $ref} resolved in the document), and each of the API's headers it carries documented for that
 * response, its value valid by the header's schema; a request's body and its path, query and header parameters against
 * their schemas. The document itself must parse without a message (swagger-parser).
 */
final class OpenApiDocument {
    static final String ID = "https://seckill.dev/gateway/openapi.yaml";
    /** The headers of this API an answer may carry; each must be documented where it is sent. */
    static final Set<String> API_HEADERS =
            Set.of("retry-after", "preference-applied", "www-authenticate", "x-trace-id", "accept");

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    final String text;
    final JsonNode doc;
    private final SchemaRegistry schemas;

    OpenApiDocument(String text) {
        this.text = text;
        try {
            this.doc = YAML.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.schemas = SchemaRegistry.withDefaultDialect(OpenApi31.getInstance(), b -> b.schemas(Map.of(ID, text)));
    }

    static OpenApiDocument fromJar() {
        return new OpenApiDocument(new String(AdminPort.openApiDocument(), StandardCharsets.UTF_8));
    }

    /** What swagger-parser says of the document (nothing, when it is valid OpenAPI 3.1). */
    List<String> parserMessages() {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        var result = new OpenAPIV3Parser().readContents(text, null, options);
        List<String> out = new ArrayList<>(result.getMessages() == null ? List.of() : result.getMessages());
        if (result.getOpenAPI() == null) out.add("not parsed");
        else if (!"3.1.0".equals(result.getOpenAPI().getOpenapi())) out.add("not OpenAPI 3.1.0");
        return out;
    }

    /** Every way {@code answer} to {@code method path} departs from the document; empty when it is documented. */
    List<String> check(String method, String pathTemplate, HttpResponse<String> answer) {
        String at = method.toUpperCase(Locale.ROOT) + " " + pathTemplate + " → " + answer.statusCode();
        List<String> out = new ArrayList<>();
        JsonNode operation = doc.path("paths").path(pathTemplate).path(method.toLowerCase(Locale.ROOT));
        if (operation.isMissingNode()) return List.of(at + ": no such operation");
        String pointer = "/paths/" + escape(pathTemplate) + "/" + method.toLowerCase(Locale.ROOT) + "/responses/"
                + answer.statusCode();
        JsonNode response = operation.path("responses").path(Integer.toString(answer.statusCode()));
        if (response.isMissingNode()) return List.of(at + ": status not documented");
        if (response.has("$ref")) {
            pointer = response.get("$ref").asText().substring(1);
            response = doc.at(pointer);
        }
        for (String header : answer.headers().map().keySet()) {
            String name = header.toLowerCase(Locale.ROOT);
            if (API_HEADERS.contains(name) && !documents(response.path("headers"), name))
                out.add(at + ": header " + header + " not documented");
        }
        for (var it = response.path("headers").fields(); it.hasNext(); ) {
            var documented = it.next();
            JsonNode header = referenced(documented.getValue());
            var value = answer.headers().firstValue(documented.getKey());
            if (header.path("required").asBoolean() && value.isEmpty())
                out.add(at + ": header " + documented.getKey() + " documented as always sent, missing");
            if (value.isPresent() && header.has("schema"))
                out.addAll(validateValue(at + " header " + documented.getKey(), header.get("schema"), value.get()));
        }
        String type = answer.headers()
                .firstValue("content-type")
                .map(t -> t.split(";")[0].strip())
                .orElse("");
        if (!response.path("content").has(type)) {
            out.add(at + ": media type '" + type + "' not documented");
            return out;
        }
        Schema schema =
                schemas.getSchema(SchemaLocation.of(ID + "#" + pointer + "/content/" + escape(type) + "/schema"));
        for (Error e : schema.validate(answer.body(), InputFormat.JSON)) out.add(at + ": " + e);
        return out;
    }

    /**
     * Every way a request's body departs from what its operation documents (none when the operation takes no body and
     * none is sent): the media type, and the body against the request body's schema.
     */
    List<String> checkRequest(String method, String pathTemplate, String contentType, String body) {
        String at = method.toUpperCase(Locale.ROOT) + " " + pathTemplate + " request";
        JsonNode operation = doc.path("paths").path(pathTemplate).path(method.toLowerCase(Locale.ROOT));
        if (operation.isMissingNode()) return List.of(at + ": no such operation");
        JsonNode requestBody = operation.path("requestBody");
        if (requestBody.isMissingNode())
            return body == null ? List.of() : List.of(at + ": a body where the operation documents none");
        if (body == null)
            return requestBody.path("required").asBoolean() ? List.of(at + ": no body, one is required") : List.of();
        String type = contentType == null ? "" : contentType.split(";")[0].strip();
        if (!requestBody.path("content").has(type)) return List.of(at + ": media type '" + type + "' not documented");
        String pointer = "/paths/" + escape(pathTemplate) + "/" + method.toLowerCase(Locale.ROOT)
                + "/requestBody/content/" + escape(type) + "/schema";
        return validate(at, pointer, body);
    }

    /**
     * Every way a request's parameters depart from what its operation (and its path) documents: each path, query and
     * header parameter against its schema, a required one missing.
     *
     * @param path    the request's path and query as sent ({@code /api/purchases?goodsId=7})
     * @param headers the request's headers, name then value
     */
    List<String> checkParameters(String method, String pathTemplate, String path, Map<String, String> headers) {
        String at = method.toUpperCase(Locale.ROOT) + " " + pathTemplate + " request";
        JsonNode item = doc.path("paths").path(pathTemplate);
        List<JsonNode> parameters = new ArrayList<>();
        item.path("parameters").forEach(parameters::add);
        item.path(method.toLowerCase(Locale.ROOT)).path("parameters").forEach(parameters::add);
        String[] pathAndQuery = path.split("\\?", 2);
        Map<String, String> query = new java.util.HashMap<>();
        if (pathAndQuery.length > 1)
            for (String pair : pathAndQuery[1].split("&")) {
                String[] kv = pair.split("=", 2);
                query.put(decoded(kv[0]), kv.length > 1 ? decoded(kv[1]) : "");
            }
        Map<String, String> inPath = pathParameters(pathTemplate, pathAndQuery[0]);
        Map<String, String> inHeaders = new java.util.HashMap<>();
        headers.forEach((k, v) -> inHeaders.put(k.toLowerCase(Locale.ROOT), v));
        List<String> out = new ArrayList<>();
        for (JsonNode p : parameters) {
            JsonNode parameter = referenced(p);
            String name = parameter.path("name").asText();
            String value = switch (parameter.path("in").asText()) {
                case "path" -> inPath.get(name);
                case "query" -> query.get(name);
                case "header" -> inHeaders.get(name.toLowerCase(Locale.ROOT));
                default -> null;
            };
            if (value == null) {
                if (parameter.path("required").asBoolean()) out.add(at + ": parameter " + name + " missing");
                continue;
            }
            out.addAll(validateValue(at + " parameter " + name, parameter.path("schema"), value));
        }
        return out;
    }

    /** The names of the operation's path and query parameters. */
    Set<String> pathAndQueryParameters(String method, String pathTemplate) {
        Set<String> out = new java.util.HashSet<>();
        JsonNode item = doc.path("paths").path(pathTemplate);
        for (JsonNode list : List.of(
                item.path("parameters"),
                item.path(method.toLowerCase(Locale.ROOT)).path("parameters")))
            for (JsonNode p : list) {
                JsonNode parameter = referenced(p);
                if (Set.of("path", "query").contains(parameter.path("in").asText()))
                    out.add(parameter.path("name").asText());
            }
        return out;
    }

    /** The template's {@code {name}} segments as they appear in {@code path} (decoded). */
    private static Map<String, String> pathParameters(String template, String path) {
        String[] names = template.split("/");
        String[] values = path.split("/", -1);
        Map<String, String> out = new java.util.HashMap<>();
        for (int i = 0; i < names.length && i < values.length; i++)
            if (names[i].startsWith("{") && names[i].endsWith("}"))
                out.put(names[i].substring(1, names[i].length() - 1), decoded(values[i]));
        return out;
    }

    private static String decoded(String text) {
        return java.net.URLDecoder.decode(text, StandardCharsets.UTF_8);
    }

    /**
     * Every way a parameter's or header's text departs from its {@code schema}: read as a number when the schema (or
     * the one it refers to) is of a numeric type and the text is one, else as a string.
     */
    private List<String> validateValue(String at, JsonNode schema, String text) {
        JsonNode target = referenced(schema);
        String type = target.path("type").asText("");
        String json;
        try {
            json = (type.equals("integer") || type.equals("number")) && text.matches("-?[0-9]+(\\.[0-9]+)?")
                    ? text
                    : Json.MAPPER.writeValueAsString(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> out = new ArrayList<>();
        // a reference resolves in the document; an inline schema (a type and a pattern) stands alone
        Schema s = schema.has("$ref")
                ? schemas.getSchema(SchemaLocation.of(ID + schema.get("$ref").asText()))
                : schemas.getSchema(schema.toString(), InputFormat.JSON);
        for (Error e : s.validate(json, InputFormat.JSON)) out.add(at + " '" + text + "': " + e);
        return out;
    }

    /** Every way {@code body} departs from the schema at {@code pointer} in the document. */
    List<String> validate(String at, String pointer, String body) {
        List<String> out = new ArrayList<>();
        try {
            Json.MAPPER.readTree(body);
        } catch (IOException e) {
            return List.of(at + ": not JSON");
        }
        Schema schema = schemas.getSchema(SchemaLocation.of(ID + "#" + pointer));
        for (Error e : schema.validate(body, InputFormat.JSON)) out.add(at + ": " + e);
        return out;
    }

    /** {@code node}, or what its {@code $ref} names in the document. */
    private JsonNode referenced(JsonNode node) {
        return node.has("$ref") ? doc.at(node.get("$ref").asText().substring(1)) : node;
    }

    private static boolean documents(JsonNode headers, String name) {
        for (var it = headers.fieldNames(); it.hasNext(); )
            if (it.next().toLowerCase(Locale.ROOT).equals(name)) return true;
        return false;
    }

    /** A JSON pointer's reference token (RFC 6901). */
    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }
}
