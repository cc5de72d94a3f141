#!/bin/sh
# The pipeline's Kafka ACLs: one principal per role, each allowed only what its clients do, on a cluster whose
# authorizer refuses what no ACL allows (allow.everyone.if.no.acl.found=false). docs/operations.md, "Kafka
# security". Made by `./seckill acls --script` from infra's PipelineAcls, which `./seckill acls --apply` and the
# tests apply too; a test holds this file to it: change PipelineAcls, then regenerate this file.
#
# Run as a principal that may change the cluster's ACLs (a super user), with Kafka's kafka-acls.sh:
#   BOOTSTRAP=broker:9093 COMMAND_CONFIG=admin.properties KAFKA_BIN=/opt/kafka/bin deploy/kafka-acls.sh
# The names follow the services' settings (SECKILL_TOPIC_PREFIX, SECKILL_STREAM_APPLICATION_ID,
# SECKILL_GATEWAY_STATUS_GROUP_ID, SECKILL_WRITER_GROUP_ID); each role's principal may be renamed, e.g.
# GATEWAY_PRINCIPAL=User:gw-prod. Adding an ACL that exists changes nothing: the script can be run again.
set -eu
: "${BOOTSTRAP:?the brokers, host:port,...}"
: "${COMMAND_CONFIG:?an admin client properties file: security.protocol, sasl.*, ssl.*}"
KAFKA_ACLS="${KAFKA_BIN:-/opt/kafka/bin}/kafka-acls.sh"
PREFIX="${SECKILL_TOPIC_PREFIX:-seckill.}"
STREAM_APP_ID="${SECKILL_STREAM_APPLICATION_ID:-${PREFIX}stock-stream}"
GATEWAY_STATUS_GROUP="${SECKILL_GATEWAY_STATUS_GROUP_ID:-${PREFIX}gateway-status}"
WRITER_GROUP="${SECKILL_WRITER_GROUP_ID:-${PREFIX}order-writer}"
GATEWAY="${GATEWAY_PRINCIPAL:-User:seckill-gateway}"
UPSTREAM="${UPSTREAM_PRINCIPAL:-User:seckill-upstream}"
PAYMENT_PROVIDER="${PAYMENT_PROVIDER_PRINCIPAL:-User:seckill-payment-provider}"
STOCK_STREAM="${STOCK_STREAM_PRINCIPAL:-User:seckill-stock-stream}"
ORDER_WRITER="${ORDER_WRITER_PRINCIPAL:-User:seckill-order-writer}"
RECONCILER="${RECONCILER_PRINCIPAL:-User:seckill-reconciler}"
OPERATOR="${OPERATOR_PRINCIPAL:-User:seckill-operator}"

acl() {
  "$KAFKA_ACLS" --bootstrap-server "$BOOTSTRAP" --command-config "$COMMAND_CONFIG" --add "$@"
}

# gateway: the ingress gateway: writes purchases and payments, follows outcomes and the ledger
acl --allow-principal "$GATEWAY" --operation Write --topic "${PREFIX}commands"  # purchases
acl --allow-principal "$GATEWAY" --operation Write --topic "${PREFIX}payments"  # the payment provider's confirmations
acl --allow-principal "$GATEWAY" --operation Read --topic "${PREFIX}outcome." --resource-pattern-type prefixed  # outcome view and status indexer
acl --allow-principal "$GATEWAY" --operation Read --topic "${PREFIX}ledger"  # the outcome view sees sales open and close
acl --allow-principal "$GATEWAY" --operation Read --group "${GATEWAY_STATUS_GROUP}"  # the status indexer's group
acl --allow-principal "$GATEWAY" --operation Describe --topic "${PREFIX}" --resource-pattern-type prefixed  # the start's check that every topic exists; offsets
acl --allow-principal "$GATEWAY" --operation Create --operation Delete --operation Read --operation Write --topic "${PREFIX}warmup-" --resource-pattern-type prefixed  # warm-up topics
acl --allow-principal "$GATEWAY" --operation Read --operation Delete --group "${PREFIX}warmup-" --resource-pattern-type prefixed  # warm-up indexer group

# upstream: a service upstream that sends purchases straight to <prefix>commands, and nothing else
acl --allow-principal "$UPSTREAM" --operation Write --topic "${PREFIX}commands"  # purchases

# payment-provider: a payment provider that reports payments straight to <prefix>payments
acl --allow-principal "$PAYMENT_PROVIDER" --operation Write --topic "${PREFIX}payments"  # payments it vouches for

# stock-stream: the Kafka Streams app that decides every command (exactly once)
acl --allow-principal "$STOCK_STREAM" --operation Read --topic "${PREFIX}commands"  # what it decides
acl --allow-principal "$STOCK_STREAM" --operation Write --topic "${PREFIX}outcome." --resource-pattern-type prefixed  # the outcomes
acl --allow-principal "$STOCK_STREAM" --operation Write --topic "${PREFIX}ledger"  # stock changes
acl --allow-principal "$STOCK_STREAM" --operation Write --topic "${PREFIX}dlq"  # poison commands
acl --allow-principal "$STOCK_STREAM" --operation Describe --topic "${PREFIX}" --resource-pattern-type prefixed  # the start's check that every topic exists; offsets
acl --allow-principal "$STOCK_STREAM" --operation Read --group "${STREAM_APP_ID}"  # the application id is its group
acl --allow-principal "$STOCK_STREAM" --operation Create --operation Read --operation Write --operation DescribeConfigs --topic "${STREAM_APP_ID}-" --resource-pattern-type prefixed  # Streams' changelogs
acl --allow-principal "$STOCK_STREAM" --operation Write --transactional-id "${STREAM_APP_ID}-" --resource-pattern-type prefixed  # exactly_once_v2 producers, <app>-<process|instance>-<thread>
acl --allow-principal "$STOCK_STREAM" --operation DescribeConfigs --cluster  # the brokers' group.min/max.session.timeout.ms
acl --allow-principal "$STOCK_STREAM" --operation Create --operation Delete --operation Read --operation Write --operation DescribeConfigs --topic "${PREFIX}warmup-" --resource-pattern-type prefixed  # warm-up topics and changelogs
acl --allow-principal "$STOCK_STREAM" --operation Read --operation Delete --group "${PREFIX}warmup-" --resource-pattern-type prefixed  # warm-up app's group
acl --allow-principal "$STOCK_STREAM" --operation Write --transactional-id "${PREFIX}warmup-" --resource-pattern-type prefixed  # warm-up app's producers

# order-writer: writes orders from the ledger and takes the payments
acl --allow-principal "$ORDER_WRITER" --operation Read --topic "${PREFIX}ledger"  # orders, releases, opens, payments' decisions
acl --allow-principal "$ORDER_WRITER" --operation Read --topic "${PREFIX}payments"  # payments
acl --allow-principal "$ORDER_WRITER" --operation Read --group "${WRITER_GROUP}"  # its group
acl --allow-principal "$ORDER_WRITER" --operation Write --topic "${PREFIX}dlq"  # records it cannot write
acl --allow-principal "$ORDER_WRITER" --operation Write --topic "${PREFIX}commands"  # releases of unpaid orders, payments
acl --allow-principal "$ORDER_WRITER" --operation Describe --topic "${PREFIX}" --resource-pattern-type prefixed  # the start's check that every topic exists; offsets

# reconciler: folds the ledger, reads the lags, sends restores
acl --allow-principal "$RECONCILER" --operation Read --topic "${PREFIX}ledger"  # the ledger fold
acl --allow-principal "$RECONCILER" --operation Write --topic "${PREFIX}commands"  # restores
acl --allow-principal "$RECONCILER" --operation Describe --topic "${PREFIX}" --resource-pattern-type prefixed  # the start's check that every topic exists; offsets
acl --allow-principal "$RECONCILER" --operation Describe --group "${STREAM_APP_ID}"  # stock-stream's lag
acl --allow-principal "$RECONCILER" --operation Describe --group "${WRITER_GROUP}"  # order-writer's lag

# operator: ./seckill's tools: topics, sales, reports, replays, namespaces, reconcile
acl --allow-principal "$OPERATOR" --operation All --topic "${PREFIX}" --resource-pattern-type prefixed  # create, read, write, delete the pipeline's topics
acl --allow-principal "$OPERATOR" --operation All --group "${PREFIX}" --resource-pattern-type prefixed  # the drills' and cleans' groups
acl --allow-principal "$OPERATOR" --operation All --transactional-id "${PREFIX}" --resource-pattern-type prefixed  # the drills' in-process stream
acl --allow-principal "$OPERATOR" --operation Describe --operation DescribeConfigs --cluster  # brokers, leaders, configs
