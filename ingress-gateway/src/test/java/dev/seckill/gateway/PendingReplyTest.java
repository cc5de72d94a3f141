package dev.seckill.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.command.CommandRules;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The 202 body is written by hand; it must be the JSON a JsonObject would have written, for every requestId. */
@Tag("fast")
class PendingReplyTest {
    @Test
    void givenAnyAcceptableRequestId_thenThePendingBodyIsTheSameJsonAsAJsonObjectWrites() {
        List<String> ids = List.of(
                UUID.randomUUID().toString(),
                "a",
                "A.b_c:d-9",
                "x".repeat(64),
                "0123456789._:-",
                "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");
        for (String id : ids) {
            assertThat(CommandRules.validRequestId(id)).as(id).isTrue();
            JsonObject parsed = new JsonObject(dev.seckill.gateway.http.Replies.pendingBody(id));
            assertThat(parsed).isEqualTo(new JsonObject().put("requestId", id).put("status", "PENDING"));
            assertThat(dev.seckill.gateway.http.Replies.pendingBody(id))
                    .isEqualTo(new JsonObject()
                            .put("requestId", id)
                            .put("status", "PENDING")
                            .encode());
        }
    }
}
