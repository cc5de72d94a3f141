package dev.seckill.infra.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.HostPathVolumeSource;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.SELinuxOptions;
import io.fabric8.kubernetes.api.model.SeccompProfile;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Sysctl;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every pod template (Deployments, the StatefulSet, the Job) meets the Pod Security Standards' "Restricted" profile and
 * has a read-only root filesystem ({@link RestrictedProfile}); each rule, broken alone in the gateway's template, is
 * found.
 */
@Tag("fast")
class RestrictedProfileTest {
    /** The pod templates of every overlay (the Job is the local one's: production's topics are Strimzi's). */
    static Map<String, PodTemplateSpec> templates() throws IOException {
        List<HasMetadata> docs = new java.util.ArrayList<>(K8sModel.all());
        docs.addAll(K8sModel.of(K8sModel.rendered("local"), Job.class));
        Map<String, PodTemplateSpec> t = new LinkedHashMap<>();
        K8sModel.of(docs, Deployment.class)
                .forEach(d -> t.put(d.getMetadata().getName(), d.getSpec().getTemplate()));
        K8sModel.of(docs, StatefulSet.class)
                .forEach(d -> t.put(d.getMetadata().getName(), d.getSpec().getTemplate()));
        K8sModel.of(docs, Job.class)
                .forEach(d -> t.put(d.getMetadata().getName(), d.getSpec().getTemplate()));
        return t;
    }

    @Test
    void everyPodTemplateMeetsTheRestrictedProfileWithAReadOnlyRoot() throws IOException {
        Map<String, PodTemplateSpec> templates = templates();
        assertThat(templates.keySet())
                .containsExactlyInAnyOrder(
                        "ingress-gateway", "order-writer", "reconciler", "stock-stream", "seckill-topics");
        templates.forEach((name, t) -> {
            assertThat(RestrictedProfile.violations(t.getMetadata(), t.getSpec()))
                    .as(name)
                    .isEmpty();
            PodSpec spec = t.getSpec();
            assertThat(spec.getAutomountServiceAccountToken())
                    .as(name + " no API token")
                    .isFalse();
            // a read-only root needs a writable /tmp for the JVM (hsperfdata, unpacked native libraries)
            assertThat(spec.getContainers().get(0).getVolumeMounts())
                    .as(name + " /tmp")
                    .anySatisfy(m -> {
                        assertThat(m.getMountPath()).isEqualTo("/tmp");
                        assertThat(spec.getVolumes())
                                .filteredOn(v -> v.getName().equals(m.getName()))
                                .singleElement()
                                .satisfies(v -> assertThat(v.getEmptyDir()).isNotNull());
                    });
        });
    }

    static SecurityContext sc(PodSpec s) {
        return s.getContainers().get(0).getSecurityContext();
    }

    static Stream<Arguments> brokenRules() {
        return Stream.<Object[]>of(
                        new Object[] {
                            "root allowed",
                            (Consumer<PodSpec>) s -> s.getSecurityContext().setRunAsNonRoot(false),
                            "runAsNonRoot not true"
                        },
                        new Object[] {
                            "uid 0 on the container", (Consumer<PodSpec>) s -> sc(s).setRunAsUser(0L), "runAsUser 0"
                        },
                        new Object[] {
                            "uid 0 on the pod",
                            (Consumer<PodSpec>) s -> s.getSecurityContext().setRunAsUser(0L),
                            "pod: runAsUser 0"
                        },
                        new Object[] {
                            "privilege escalation",
                            (Consumer<PodSpec>) s -> sc(s).setAllowPrivilegeEscalation(null),
                            "allowPrivilegeEscalation"
                        },
                        new Object[] {
                            "capabilities kept",
                            (Consumer<PodSpec>)
                                    s -> sc(s).setCapabilities(new Capabilities(List.of(), List.of("NET_RAW"))),
                            "do not drop ALL"
                        },
                        new Object[] {
                            "a capability added",
                            (Consumer<PodSpec>) s -> sc(s).getCapabilities().setAdd(List.of("SYS_ADMIN")),
                            "capability SYS_ADMIN"
                        },
                        new Object[] {
                            "no seccomp",
                            (Consumer<PodSpec>) s -> s.getSecurityContext().setSeccompProfile(null),
                            "seccompProfile unset"
                        },
                        new Object[] {
                            "seccomp off on the container",
                            (Consumer<PodSpec>) s -> sc(s).setSeccompProfile(new SeccompProfile(null, "Unconfined")),
                            "seccompProfile Unconfined"
                        },
                        new Object[] {"privileged", (Consumer<PodSpec>) s -> sc(s).setPrivileged(true), "privileged"},
                        new Object[] {"host network", (Consumer<PodSpec>) s -> s.setHostNetwork(true), "hostNetwork"},
                        new Object[] {"host PIDs", (Consumer<PodSpec>) s -> s.setHostPID(true), "hostPID"},
                        new Object[] {"host IPC", (Consumer<PodSpec>) s -> s.setHostIPC(true), "hostIPC"},
                        new Object[] {
                            "a host port",
                            (Consumer<PodSpec>) s ->
                                    s.getContainers().get(0).getPorts().get(0).setHostPort(8080),
                            "hostPort 8080"
                        },
                        new Object[] {
                            "a hostPath volume",
                            (Consumer<PodSpec>) s -> s.getVolumes().add(hostPath()),
                            "type hostPath"
                        },
                        new Object[] {
                            "an unmasked /proc",
                            (Consumer<PodSpec>) s -> sc(s).setProcMount("Unmasked"),
                            "procMount Unmasked"
                        },
                        new Object[] {
                            "an SELinux type",
                            (Consumer<PodSpec>)
                                    s -> sc(s).setSeLinuxOptions(new SELinuxOptions(null, null, "spc_t", null)),
                            "seLinuxOptions.type spc_t"
                        },
                        new Object[] {
                            "an unsafe sysctl",
                            (Consumer<PodSpec>)
                                    s -> s.getSecurityContext().getSysctls().add(new Sysctl("kernel.msgmax", "1")),
                            "sysctl kernel.msgmax"
                        },
                        new Object[] {
                            "a writable root",
                            (Consumer<PodSpec>) s -> sc(s).setReadOnlyRootFilesystem(false),
                            "readOnlyRootFilesystem"
                        })
                .map(Arguments::of);
    }

    static Volume hostPath() {
        Volume v = new Volume();
        v.setName("host");
        v.setHostPath(new HostPathVolumeSource("/var/run", ""));
        return v;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenRules")
    void eachRuleBrokenAloneIsFound(String rule, Consumer<PodSpec> breakIt, String named) throws IOException {
        PodTemplateSpec gateway = templates().get("ingress-gateway");
        assertThat(RestrictedProfile.violations(gateway.getMetadata(), gateway.getSpec()))
                .isEmpty();
        breakIt.accept(gateway.getSpec());
        assertThat(RestrictedProfile.violations(gateway.getMetadata(), gateway.getSpec()))
                .as(rule)
                .singleElement()
                .asString()
                .contains(named);
    }
}
