package dev.seckill.infra.deploy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SELinuxOptions;
import io.fabric8.kubernetes.api.model.SeccompProfile;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Sysctl;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The Pod Security Standards' "Restricted" profile (kubernetes.io/docs/concepts/security/pod-security-standards, which
 * includes every "Baseline" control), checked as the admission controller does on a pod template, plus this project's
 * own rule: a read-only root filesystem. Each violation is one line naming the control and where.
 */
final class RestrictedProfile {
    static final Set<String> VOLUME_TYPES = Set.of(
            "configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim", "projected", "secret");
    static final Set<String> SAFE_SYSCTLS = Set.of(
            "kernel.shm_rmid_forced",
            "net.ipv4.ip_local_port_range",
            "net.ipv4.ip_unprivileged_port_start",
            "net.ipv4.tcp_syncookies",
            "net.ipv4.ping_group_range",
            "net.ipv4.ip_local_reserved_ports",
            "net.ipv4.tcp_keepalive_time",
            "net.ipv4.tcp_fin_timeout",
            "net.ipv4.tcp_keepalive_intvl",
            "net.ipv4.tcp_keepalive_probes");
    static final Set<String> SELINUX_TYPES =
            Set.of("", "container_t", "container_init_t", "container_kvm_t", "container_engine_t");
    private static final ObjectMapper PLAIN = new ObjectMapper();

    private RestrictedProfile() {}

    /** A container of any of the three lists, as the controls see it. */
    record Box(String name, SecurityContext sc, List<ContainerPort> ports) {}

    static List<String> violations(ObjectMeta podMeta, PodSpec spec) {
        List<String> v = new ArrayList<>();
        PodSecurityContext pod = Objects.requireNonNullElseGet(spec.getSecurityContext(), PodSecurityContext::new);
        List<Box> boxes = Stream.of(
                        spec.getInitContainers().stream()
                                .map(c -> new Box(c.getName(), c.getSecurityContext(), c.getPorts())),
                        spec.getContainers().stream()
                                .map(c -> new Box(c.getName(), c.getSecurityContext(), c.getPorts())),
                        spec.getEphemeralContainers().stream()
                                .map(c -> new Box(c.getName(), c.getSecurityContext(), c.getPorts())))
                .flatMap(s -> s)
                .toList();
        // Baseline: host namespaces, HostProcess, hostPath, sysctls, pod-level SELinux and AppArmor
        if (isTrue(spec.getHostNetwork())) v.add("hostNetwork");
        if (isTrue(spec.getHostPID())) v.add("hostPID");
        if (isTrue(spec.getHostIPC())) v.add("hostIPC");
        if (pod.getWindowsOptions() != null && isTrue(pod.getWindowsOptions().getHostProcess()))
            v.add("pod: windowsOptions.hostProcess");
        for (Sysctl s : pod.getSysctls()) if (!SAFE_SYSCTLS.contains(s.getName())) v.add("sysctl " + s.getName());
        selinux("pod", pod.getSeLinuxOptions(), v);
        if (pod.getAppArmorProfile() != null
                && "Unconfined".equals(pod.getAppArmorProfile().getType())) v.add("pod: appArmorProfile Unconfined");
        Map<String, String> annotations = podMeta == null ? Map.of() : podMeta.getAnnotations();
        annotations.forEach((k, val) -> {
            if (k.startsWith("container.apparmor.security.beta.kubernetes.io/")
                    && !val.equals("runtime/default")
                    && !val.startsWith("localhost/")) v.add("annotation " + k + "=" + val);
        });
        // Restricted: volume types (hostPath among those refused)
        for (Volume vol : spec.getVolumes()) {
            @SuppressWarnings("unchecked")
            Map<String, Object> fields = PLAIN.convertValue(vol, Map.class);
            fields.forEach((type, source) -> {
                if (!type.equals("name") && source != null && !VOLUME_TYPES.contains(type))
                    v.add("volume " + vol.getName() + ": type " + type);
            });
        }
        // Restricted: non-root and seccomp, at the pod level or on every container
        boolean podNonRoot = isTrue(pod.getRunAsNonRoot());
        boolean podSeccomp = seccompConfined(pod.getSeccompProfile());
        if (pod.getRunAsUser() != null && pod.getRunAsUser() == 0) v.add("pod: runAsUser 0");
        if (pod.getSeccompProfile() != null && !podSeccomp)
            v.add("pod: seccompProfile " + type(pod.getSeccompProfile()));
        for (Box b : boxes) {
            String at = b.name() + ": ";
            SecurityContext sc = Objects.requireNonNullElseGet(b.sc(), SecurityContext::new);
            if (isTrue(sc.getPrivileged())) v.add(at + "privileged");
            if (sc.getWindowsOptions() != null && isTrue(sc.getWindowsOptions().getHostProcess()))
                v.add(at + "windowsOptions.hostProcess");
            if (sc.getProcMount() != null && !sc.getProcMount().equals("Default"))
                v.add(at + "procMount " + sc.getProcMount());
            selinux(b.name(), sc.getSeLinuxOptions(), v);
            if (sc.getAppArmorProfile() != null
                    && "Unconfined".equals(sc.getAppArmorProfile().getType())) v.add(at + "appArmorProfile Unconfined");
            for (ContainerPort p : b.ports())
                if (p.getHostPort() != null && p.getHostPort() != 0) v.add(at + "hostPort " + p.getHostPort());
            if (!Boolean.FALSE.equals(sc.getAllowPrivilegeEscalation()))
                v.add(at + "allowPrivilegeEscalation not false");
            Boolean nonRoot = sc.getRunAsNonRoot();
            if (Boolean.FALSE.equals(nonRoot) || (nonRoot == null && !podNonRoot)) v.add(at + "runAsNonRoot not true");
            if (sc.getRunAsUser() != null && sc.getRunAsUser() == 0) v.add(at + "runAsUser 0");
            SeccompProfile seccomp = sc.getSeccompProfile();
            if (seccomp != null ? !seccompConfined(seccomp) : !podSeccomp)
                v.add(at + "seccompProfile " + (seccomp == null ? "unset" : type(seccomp)));
            Capabilities caps = Objects.requireNonNullElseGet(sc.getCapabilities(), Capabilities::new);
            if (!caps.getDrop().contains("ALL")) v.add(at + "capabilities do not drop ALL");
            for (String add : caps.getAdd()) if (!add.equals("NET_BIND_SERVICE")) v.add(at + "capability " + add);
            // this project's rule beyond the profile
            if (!isTrue(sc.getReadOnlyRootFilesystem())) v.add(at + "readOnlyRootFilesystem not true");
        }
        return v;
    }

    private static void selinux(String at, SELinuxOptions o, List<String> v) {
        if (o == null) return;
        if (o.getType() != null && !SELINUX_TYPES.contains(o.getType()))
            v.add(at + ": seLinuxOptions.type " + o.getType());
        if (o.getUser() != null && !o.getUser().isEmpty()) v.add(at + ": seLinuxOptions.user");
        if (o.getRole() != null && !o.getRole().isEmpty()) v.add(at + ": seLinuxOptions.role");
    }

    private static boolean seccompConfined(SeccompProfile p) {
        return p != null && ("RuntimeDefault".equals(p.getType()) || "Localhost".equals(p.getType()));
    }

    private static String type(SeccompProfile p) {
        return String.valueOf(p.getType());
    }

    private static boolean isTrue(Boolean b) {
        return Boolean.TRUE.equals(b);
    }
}
