import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { diagnosisConfigSchema, loadDiagnosisConfig } from "../lib/diagnosis/config";
import { envSchema, parseEnv } from "../lib/env";

/**
 * The Kubernetes manifests in deploy/ (docs/deploy.md) against the configuration the code reads: every
 * variable they set is one lib/env.ts, lib/diagnosis/config.ts or a direct `process.env.X` read knows; what
 * the code needs without a default is provided; commands are real CLI subcommands; probes hit real routes
 * on the real port; the HPA scales the web Deployment and nothing scales workers on CPU; secrets come from
 * the Secret. Renaming a variable in lib/env.ts makes this fail until the manifests follow.
 */

const ROOT = path.resolve(import.meta.dirname, "..");
const DEPLOY = path.join(ROOT, "deploy");
const read = (p: string) => fs.readFileSync(path.join(ROOT, p), "utf8");

// ---------- the manifests ----------

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function parseYamlFile(file: string): Obj[] {
  const docs = parseAllDocuments(fs.readFileSync(path.join(DEPLOY, file), "utf8"));
  const out: Obj[] = [];
  for (const d of docs) {
    if (d.errors.length) throw new Error(`deploy/${file}: ${d.errors.map((e) => e.message).join("; ")}`);
    const js = d.toJS();
    if (js) out.push(js as Obj);
  }
  return out;
}

const kustomization = parseYamlFile("kustomization.yaml")[0];
const RESOURCES: string[] = kustomization.resources;
/** Files in deploy/ that are parsed and checked but deliberately not applied by the kustomization. */
const EXAMPLES = ["secret.example.yaml"];
const objects: Obj[] = RESOURCES.flatMap((f) => parseYamlFile(f).map((o): Obj => ({ ...o, __file: f })));
const secretExample = parseYamlFile("secret.example.yaml")[0];

function find(kind: string, name: string): Obj {
  const o = objects.find((x) => x.kind === kind && x.metadata?.name === name);
  if (!o) throw new Error(`deploy/: no ${kind} named ${name}`);
  return o;
}
const ofKind = (kind: string) => objects.filter((o) => o.kind === kind);

const configMap = find("ConfigMap", "faultline-config");
const CONFIG: Record<string, string> = configMap.data;
const SECRET_NAME: string = secretExample.metadata.name;
const SECRET: Record<string, string> = secretExample.stringData;
const webDeployment = find("Deployment", "faultline-web");
const workerDeployment = find("Deployment", "faultline-worker");

interface Container {
  deployment: string;
  role: string;
  init: boolean;
  spec: Obj;
}
const containers: Container[] = ofKind("Deployment").flatMap((d) => {
  const pod = d.spec.template.spec;
  return [
    ...(pod.initContainers ?? []).map((c: Obj) => ({ deployment: d.metadata.name, role: c.name, init: true, spec: c })),
    ...pod.containers.map((c: Obj) => ({ deployment: d.metadata.name, role: c.name, init: false, spec: c })),
  ];
});
const containerFor = (role: string): Container => {
  const c = containers.find((x) => x.role === role);
  if (!c) throw new Error(`deploy/: no container named ${role}`);
  return c;
};

/** The environment a container gets, with where each value comes from. */
function containerEnv(c: Container): Map<string, { from: "configmap" | "secret" | "value"; value: string | undefined; optional: boolean }> {
  const env = new Map<string, { from: "configmap" | "secret" | "value"; value: string | undefined; optional: boolean }>();
  for (const src of c.spec.envFrom ?? []) {
    if (src.configMapRef) {
      expect(src.configMapRef.name, `${c.role}: envFrom a ConfigMap deploy/ does not define`).toBe(configMap.metadata.name);
      for (const [k, v] of Object.entries(CONFIG)) env.set(k, { from: "configmap", value: v, optional: false });
    }
    if (src.secretRef) {
      expect(src.secretRef.name).toBe(SECRET_NAME);
      for (const [k, v] of Object.entries(SECRET)) env.set(k, { from: "secret", value: v, optional: !!src.secretRef.optional });
    }
  }
  for (const e of c.spec.env ?? []) {
    if ("value" in e) env.set(e.name, { from: "value", value: String(e.value), optional: false });
    else if (e.valueFrom?.secretKeyRef) {
      const ref = e.valueFrom.secretKeyRef;
      expect(ref.name, `${c.role}: ${e.name} from a Secret other than ${SECRET_NAME}`).toBe(SECRET_NAME);
      expect(Object.keys(SECRET), `${c.role}: ${e.name} reads key ${ref.key}, which secret.example.yaml lacks`).toContain(ref.key);
      env.set(e.name, { from: "secret", value: SECRET[ref.key], optional: !!ref.optional });
    } else if (e.valueFrom?.configMapKeyRef) {
      const ref = e.valueFrom.configMapKeyRef;
      expect(ref.name).toBe(configMap.metadata.name);
      env.set(e.name, { from: "configmap", value: CONFIG[ref.key], optional: !!ref.optional });
    } else throw new Error(`${c.role}: ${e.name} has neither a value nor a ConfigMap/Secret reference`);
  }
  return env;
}
const plainEnv = (c: Container) => Object.fromEntries([...containerEnv(c)].map(([k, v]) => [k, v.value]));
/** An environment as process.env would hold it (for parseEnv). */
const asEnv = (vars: Record<string, string | undefined>) => vars as NodeJS.ProcessEnv;

// ---------- the Dockerfile ----------

const dockerfile = fs.readFileSync(path.join(DEPLOY, "Dockerfile"), "utf8");
const dockerEnv = Object.fromEntries([...dockerfile.matchAll(/^ENV\s+([A-Z_][A-Z0-9_]*)=(\S+)/gm)].map((m) => [m[1], m[2]]));
const dockerEntrypoint: string[] = JSON.parse(/^ENTRYPOINT\s+(\[.*\])\s*$/m.exec(dockerfile)?.[1] ?? "null");
const dockerWorkdir = /^WORKDIR\s+(\S+)/m.exec(dockerfile)?.[1];

// ---------- what the code reads ----------

const SCHEMA_VARS = Object.keys(envSchema.shape);
const DIAGNOSIS_VARS = Object.keys(diagnosisConfigSchema.shape);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : sourceFiles(rel);
    return /\.(ts|tsx|mjs)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [rel] : [];
  });
}
const SOURCES = ["app", "server", "lib", "db", "components", "bin"].flatMap(sourceFiles).map((f) => ({ file: f, text: read(f) }));
/** Variables the product's code reads straight from process.env (outside the zod schemas). */
const DIRECT_VARS = new Set(SOURCES.flatMap(({ text }) => [...text.matchAll(/process\.env(?:\.([A-Z_][A-Z0-9_]*)|\[\s*"([A-Z_][A-Z0-9_]*)"\s*\])/g)].map((m) => m[1] ?? m[2])));
/** Read by Next.js, not by Faultline's code; the launcher sets it for its children too. */
const NEXT_VARS = ["NEXT_TELEMETRY_DISABLED"];
const KNOWN = new Set([...SCHEMA_VARS, ...DIAGNOSIS_VARS, ...DIRECT_VARS, ...NEXT_VARS]);

/**
 * The schema's variables that have no default and may be absent: who needs them in a deployment. A new
 * variable without a default fails the test until it is classified here (and provided where needed).
 */
const NO_DEFAULT: Record<string, { needed_by: string[] } | { never: string }> = {
  DATABASE_URL: { needed_by: ["web", "worker", "migrate"] }, // without it a worker or migrate would start an embedded PostgreSQL in its pod
  NEXTAUTH_SECRET: { needed_by: ["web"] }, // server/web.ts refuses to start without it
  FAULTLINE_RECORDED_PROVIDER: { never: "demo mode only: set by npm start for the replay server it runs" },
};
/** Schema variables the manifests deliberately leave out (the code's default applies). */
const LEFT_OUT: Record<string, string> = {
  FAULTLINE_RECORDED_PROVIDER: "demo mode only",
};

const allSetNames = () => {
  const names = new Set<string>([...Object.keys(CONFIG), ...Object.keys(SECRET), ...Object.keys(dockerEnv)]);
  for (const c of containers) for (const e of c.spec.env ?? []) names.add(e.name);
  return names;
};

// ---------- tests ----------

describe("deploy/ manifests", () => {
  it("every manifest parses, the kustomization lists each one, and the secret example stays out of it", () => {
    const yamlFiles = fs.readdirSync(DEPLOY).filter((f) => /\.ya?ml$/.test(f));
    for (const f of yamlFiles) expect(() => parseYamlFile(f), f).not.toThrow();
    expect(new Set([...RESOURCES, ...EXAMPLES, "kustomization.yaml"])).toEqual(new Set(yamlFiles));
    for (const e of EXAMPLES) expect(RESOURCES).not.toContain(e);
    expect(kustomization.kind).toBe("Kustomization");
    for (const o of objects) expect(o.metadata?.name, `${o.__file}: ${o.kind} without a name`).toBeTruthy();
    expect(secretExample.kind).toBe("Secret");
  });

  it("every variable the manifests and the image set is one the code reads", () => {
    const unknown = [...allSetNames()].filter((n) => !KNOWN.has(n));
    expect(unknown, `not read by lib/env.ts, lib/diagnosis/config.ts, a process.env read or Next.js (a typo, or renamed in the code?)`).toEqual([]);
    for (const n of NEXT_VARS) expect(read("server/start.ts"), `${n}: the launcher no longer sets it`).toContain(n);
  });

  it("every variable of the code's schemas is set in deploy/ or deliberately left out", () => {
    const set = allSetNames();
    const missing = [...SCHEMA_VARS, ...DIAGNOSIS_VARS].filter((n) => !set.has(n) && !(n in LEFT_OUT));
    expect(missing, "new or renamed in lib/env.ts or lib/diagnosis/config.ts: set it in deploy/configmap.yaml (or the Secret), or list it in LEFT_OUT").toEqual([]);
    for (const n of Object.keys(LEFT_OUT)) expect(set.has(n), `${n} is listed as left out but deploy/ sets it`).toBe(false);
  });

  it("the values parse with the code's own schemas, for every container", () => {
    for (const c of containers) {
      const env = { ...dockerEnv, ...plainEnv(c) };
      expect(() => parseEnv(asEnv(env)), c.role).not.toThrow();
      expect(() => loadDiagnosisConfig(env), c.role).not.toThrow();
    }
  });

  it("what the code needs without a default is provided, from the Secret", () => {
    const noDefault = SCHEMA_VARS.filter((k) => {
      const r = (envSchema.shape as Record<string, { safeParse(v: unknown): { success: boolean; data?: unknown } }>)[k].safeParse(undefined);
      return r.success && r.data === undefined;
    });
    expect(new Set(noDefault), "classify every variable without a default in NO_DEFAULT").toEqual(new Set(Object.keys(NO_DEFAULT)));
    for (const [name, rule] of Object.entries(NO_DEFAULT)) {
      if ("needed_by" in rule)
        for (const role of rule.needed_by) {
          const got = containerEnv(containerFor(role)).get(name);
          expect(got, `${role} needs ${name}`).toBeDefined();
          expect(got!.optional, `${role}: ${name} must not be optional`).toBe(false);
        }
      if ("never" in rule) expect(allSetNames().has(name), `${name}: ${rule.never}`).toBe(false);
    }
    // Credentials only from the Secret: never a literal in a manifest, never in the ConfigMap.
    for (const name of ["DATABASE_URL", "NEXTAUTH_SECRET", "FAULTLINE_LLM_PROVIDERS"]) {
      expect(Object.keys(CONFIG), `${name} belongs in the Secret`).not.toContain(name);
      expect(Object.keys(dockerEnv)).not.toContain(name);
      for (const c of containers) {
        const got = containerEnv(c).get(name);
        if (got) expect(got.from, `${c.role}: ${name}`).toBe("secret");
      }
    }
    // Every process (web, worker, the migration) gets DATABASE_URL: no pod may fall back to an embedded PostgreSQL.
    for (const c of containers) expect(containerEnv(c).get("DATABASE_URL")?.from, c.role).toBe("secret");
  });

  it("commands are the real CLI's subcommands, and migrations run before web serves", () => {
    expect(fs.existsSync(path.join(ROOT, "bin/faultline.mjs"))).toBe(true);
    expect(dockerWorkdir, "the manifests' relative bin/faultline.mjs needs the image's WORKDIR at the repository root").toBe("/app");
    expect(dockerEntrypoint).toEqual(["node", "bin/faultline.mjs"]);
    const cli = read("server/cli.ts");
    const main = cli.slice(cli.indexOf("async function main("));
    const subcommands = new Set([...main.slice(0, main.indexOf("\n}\n")).matchAll(/^\s*case "([a-z-]+)":/gm)].map((m) => m[1]));
    expect(subcommands).toContain("web");
    for (const c of containers) {
      expect(c.spec.image, c.role).toBe("faultline");
      expect(c.spec.command, c.role).toEqual(dockerEntrypoint);
      expect(subcommands, `${c.role}: "${c.spec.args[0]}" is not a faultline subcommand`).toContain(c.spec.args[0]);
      expect(c.spec.args).toEqual([c.role]);
    }
    expect(containerFor("web").deployment).toBe("faultline-web");
    expect(containerFor("worker").deployment).toBe("faultline-worker");
    const migrate = containerFor("migrate");
    expect(migrate.init && migrate.deployment === "faultline-web", "migrate is an initContainer of the web Deployment").toBe(true);
    for (const img of kustomization.images ?? []) expect(img.name).toBe("faultline");
  });

  it("the web container listens where the code says, and probes hit real routes on that port", () => {
    const web = containerFor("web");
    const env = parseEnv(asEnv({ ...dockerEnv, ...plainEnv(web) }));
    expect(["0.0.0.0", "::"], "HOST must not be loopback in a pod").toContain(env.HOST);
    const ports: Obj[] = web.spec.ports;
    expect(ports.map((p) => p.containerPort)).toEqual([env.PORT]);
    const named = new Map(ports.map((p) => [p.name, p.containerPort]));
    const probes = ["startupProbe", "readinessProbe", "livenessProbe"].map((k) => [k, web.spec[k]] as const);
    for (const [k, probe] of probes) {
      expect(probe, `web has no ${k}`).toBeTruthy();
      const target = probe.httpGet ?? probe.tcpSocket;
      expect(target.port === env.PORT || named.get(target.port) === env.PORT, `${k} port`).toBe(true);
      if (probe.httpGet) {
        const route = path.join(ROOT, "app", probe.httpGet.path, "route.ts");
        expect(fs.existsSync(route), `${k}: no route ${probe.httpGet.path} (${route})`).toBe(true);
        expect(fs.readFileSync(route, "utf8")).toMatch(/export (async function|const) GET\b/);
      }
    }
    expect(web.spec.readinessProbe.httpGet?.path, "readiness asks the health endpoint").toBe("/api/health");
    const service = find("Service", "faultline-web");
    expect(service.spec.selector).toEqual(webDeployment.spec.template.metadata.labels);
    for (const p of service.spec.ports) expect(named.get(p.targetPort) ?? p.targetPort).toBe(env.PORT);
    expect(service.spec.sessionAffinity, "socket.io's polling fallback needs affinity").toBe("ClientIP");
    for (const ing of ofKind("Ingress"))
      for (const rule of ing.spec.rules)
        for (const p of rule.http.paths) {
          expect(p.backend.service.name).toBe(service.metadata.name);
          expect(service.spec.ports.map((x: Obj) => x.name)).toContain(p.backend.service.port.name);
          expect(new URL(CONFIG.NEXTAUTH_URL).host, "the Ingress host is NEXTAUTH_URL's").toBe(rule.host);
        }
  });

  it("the HPA scales the web Deployment on CPU; workers have fixed replicas and no autoscaler", () => {
    const hpas = ofKind("HorizontalPodAutoscaler");
    expect(hpas).toHaveLength(1);
    const [hpa] = hpas;
    expect(hpa.apiVersion).toBe("autoscaling/v2");
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: "apps/v1", kind: "Deployment", name: webDeployment.metadata.name });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hpa.spec.metrics.map((m: Obj) => m.resource?.name)).toEqual(["cpu"]);
    expect(containerFor("web").spec.resources?.requests?.cpu, "CPU utilisation needs a CPU request").toBeTruthy();
    expect(webDeployment.spec.replicas, "the HPA owns the web replica count; a replicas field would reset it on every apply").toBeUndefined();
    expect(workerDeployment.spec.replicas).toBeGreaterThanOrEqual(2);
    for (const h of hpas) expect(h.spec.scaleTargetRef.name).not.toBe(workerDeployment.metadata.name);
    for (const d of ofKind("Deployment")) expect(d.spec.selector.matchLabels).toEqual(d.spec.template.metadata.labels);
  });

  it("workspaces (FAULTLINE_DATA_DIR) are the shared volume in web and worker", () => {
    const dataDir = parseEnv(asEnv({ ...dockerEnv, ...CONFIG })).FAULTLINE_DATA_DIR;
    const pvc = find("PersistentVolumeClaim", "faultline-workspaces");
    expect(pvc.spec.accessModes).toContain("ReadWriteMany");
    for (const d of [webDeployment, workerDeployment]) {
      const pod = d.spec.template.spec;
      const volume = pod.volumes.find((v: Obj) => v.persistentVolumeClaim?.claimName === pvc.metadata.name);
      expect(volume, d.metadata.name).toBeDefined();
      const main = pod.containers[0];
      expect(main.volumeMounts.find((m: Obj) => m.name === volume.name)?.mountPath, d.metadata.name).toBe(dataDir);
    }
  });

  it("docs name every variable the code reads and every manifest", () => {
    const configuration = read("docs/configuration.md");
    for (const n of [...SCHEMA_VARS, ...DIAGNOSIS_VARS]) expect(configuration, `docs/configuration.md does not name ${n}`).toContain(`\`${n}\``);
    const deploy = read("docs/deploy.md");
    for (const f of [...RESOURCES, ...EXAMPLES, "Dockerfile"]) expect(deploy, `docs/deploy.md does not mention deploy/${f}`).toContain(f);
  });
});
