import os from "node:os";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { DbHandle } from "../../db/client";
import { listenToChannel, type Listener } from "../../db/listen";
import { EVENTS_CHANNEL, LeaseLostError, type EventsNotification } from "../../db/queries/events";
import { claimMission, releaseMission, renewLeases } from "../../db/queries/missions";
import { ensureActor } from "../../db/queries/users";
import { resolveTimedOutGates } from "../../db/queries/gates";
import { SYSTEM_ACTOR } from "../../lib/audit";
import { AUTHORITY_ACTOR_ID } from "../../lib/authority/types";
import { workers } from "../../db/schema";
import { ensurePartitions, PARTITION_CHECK_MS } from "../../db/partitions";
import { DEFAULT_RECOVERY_BINARIES, runMission, type RunSettings } from "./runner";
import { loadDiagnosisConfig } from "../../lib/diagnosis/config";

export interface WorkerOptions extends RunSettings {
  handle: DbHandle;
  databaseUrl: string;
  workspacesDir: string;
  allowedBinaries?: readonly string[];
  leaseMs: number;
  heartbeatMs: number;
  pollMs: number;
  concurrency: number;
  /** How often open gates are checked for a passed policy timeout (default 5 s; also after every wake-up). */
  gateSweepMs?: number;
  /** Claim only this mission (the CLI's in-process worker). */
  onlyMissionId?: string;
  /** Worker actor id; default `worker:<host>:<pid>:<random>`. */
  id?: string;
  log?: (msg: string) => void;
}

/**
 * The orchestrator worker: claims runnable missions with a lease (FOR UPDATE SKIP LOCKED), keeps
 * the leases alive with a heartbeat, runs missions, and wakes on LISTEN (polling as a fallback).
 * A mission is held by one lease at a time; a killed worker's leases expire and another takes over.
 */
export class Worker {
  readonly id: string;
  private readonly held = new Map<string, AbortController>();
  private readonly running = new Set<Promise<void>>();
  private listener: Listener | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private stopping = false;
  /** Resolves the current sleep; a wake-up while not sleeping is remembered (wakePending) instead of lost. */
  private wakeSleeper: (() => void) | null = null;
  private wakePending = false;
  private loop: Promise<void> | null = null;
  private nextGateSweep = 0;
  private nextPartitionCheck = 0;
  private readonly log: (msg: string) => void;

  constructor(private readonly opts: WorkerOptions) {
    this.id = opts.id ?? `worker:${os.hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
    this.log = opts.log ?? ((m) => console.log(`[worker] ${m}`));
  }

  async start(): Promise<void> {
    // ADR-0003 flags (AUTONOMOUS_*) are read when the first failure is diagnosed; a bad value must stop
    // the worker here, naming the variable, not fail every mission run later (DiagnosisConfigError).
    loadDiagnosisConfig();
    const { db } = this.opts.handle;
    await ensureActor(db, { id: this.id, kind: "worker", displayName: `Worker ${this.id.split(":").slice(1, 3).join(":")}` });
    // Gate policies' timeouts are decided as the system (issue 6).
    await ensureActor(db, { id: SYSTEM_ACTOR.id, kind: "system", displayName: SYSTEM_ACTOR.name });
    // Seed 002: the one authority decides proposals as a system actor.
    await ensureActor(db, { id: AUTHORITY_ACTOR_ID, kind: "system", displayName: "Faultline authority (rules, allowlists, level checks)" });
    await db.insert(workers).values({ id: this.id }).onConflictDoNothing();
    // Time partitions (migration 0028): the months ahead exist before this worker writes (and hourly, below).
    await this.checkPartitions();
    await this.listen();
    this.heartbeat = setInterval(() => void this.beat(), this.opts.heartbeatMs);
    this.loop = this.claimLoop();
    this.log(`started ${this.id} (concurrency ${this.opts.concurrency}, lease ${this.opts.leaseMs} ms)`);
  }

  /** Stops claiming, lets running steps finish for up to `graceMs`, then aborts and releases every lease. */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.wake();
    await this.loop;
    const all = Promise.allSettled([...this.running]);
    // Runs stop at their next step boundary; a step still running after the grace period is aborted
    // and left unrecorded, so whoever takes the mission over reports it INTERRUPTED.
    const timer = setTimeout(() => this.held.forEach((c) => c.abort(new Error("worker shutting down"))), graceMs);
    await all;
    clearTimeout(timer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.listener?.close();
    await this.opts.handle.db
      .update(workers)
      .set({ active: false, stoppedAt: sql`now()` })
      .where(sql`id = ${this.id}`)
      .catch(() => {});
    this.log("stopped");
  }

  /** Missions this worker currently holds. */
  get heldMissions(): string[] {
    return [...this.held.keys()];
  }

  private async claimLoop(): Promise<void> {
    while (!this.stopping) {
      await this.sweepGateTimeouts();
      if (Date.now() >= this.nextPartitionCheck) await this.checkPartitions();
      let claimed = false;
      if (this.held.size < this.opts.concurrency) {
        try {
          const id = await claimMission(this.opts.handle.db, { workerId: this.id, leaseMs: this.opts.leaseMs, excludeIds: [...this.held.keys()], onlyId: this.opts.onlyMissionId });
          if (id) {
            claimed = true;
            this.startRun(id);
          }
        } catch (e) {
          this.log(`claim failed: ${(e as Error).message}`);
        }
      }
      if (!claimed) await this.sleep(this.opts.pollMs);
    }
  }

  /**
   * Applies gate policies' timeouts whose deadline passed (at most every `gateSweepMs`, and on wake-ups):
   * the system decides with the policy's outcome; SKIP LOCKED keeps several workers from deciding twice.
   * The decision's NOTIFY wakes the workers, which then continue the mission as after any decision.
   */
  private async sweepGateTimeouts(): Promise<void> {
    if (Date.now() < this.nextGateSweep) return;
    this.nextGateSweep = Date.now() + (this.opts.gateSweepMs ?? 5000);
    try {
      const decided = await resolveTimedOutGates(this.opts.handle.db, { missionId: this.opts.onlyMissionId });
      for (const d of decided) this.log(`mission ${d.missionId}: gate ${d.gateId} timed out; the system chose ${d.decision} (gate policy)`);
    } catch (e) {
      this.log(`gate timeout sweep failed: ${(e as Error).message}`);
    }
  }

  /** Creates the monthly partitions ahead (db/partitions.ts); a failure is logged and tried again in an hour. */
  private async checkPartitions(): Promise<void> {
    this.nextPartitionCheck = Date.now() + PARTITION_CHECK_MS;
    try {
      const created = await ensurePartitions(this.opts.handle.db);
      if (created) this.log(`created ${created} monthly partition(s) ahead`);
    } catch (e) {
      this.log(`creating the monthly partitions ahead failed: ${(e as Error).message}; rows of a month without one go to the default partition until the next try`);
    }
  }

  private startRun(id: string): void {
    const controller = new AbortController();
    this.held.set(id, controller);
    const p = (async () => {
      try {
        const outcome = await runMission(
          { db: this.opts.handle.db, workerId: this.id, workspacesDir: this.opts.workspacesDir, allowedBinaries: this.opts.allowedBinaries ?? [], recoveryBinaries: this.opts.recoveryBinaries ?? DEFAULT_RECOVERY_BINARIES, libraryProtocol: this.opts.libraryProtocol ?? true, llmProviders: this.opts.llmProviders ?? [], agentProviders: this.opts.agentProviders ?? this.opts.llmProviders ?? [], approvalTtlMs: this.opts.approvalTtlMs, signal: controller.signal, shouldStop: () => this.stopping, log: this.log },
          id,
        );
        this.log(`mission ${id}: ${outcome}`);
      } catch (e) {
        if (e instanceof LeaseLostError) this.log(e.message);
        else this.log(`mission ${id} stopped by an error: ${(e as Error).stack ?? e}`);
      } finally {
        this.held.delete(id);
        // A failed release leaves the lease to expire (the mission is taken over then); say so.
        await releaseMission(this.opts.handle.db, { id, workerId: this.id }).catch((e) => this.log(`mission ${id}: release failed (${(e as Error).message}); its lease expires in ${this.opts.leaseMs} ms`));
        this.wake();
      }
    })();
    this.running.add(p);
    void p.finally(() => this.running.delete(p));
  }

  private async beat(): Promise<void> {
    const ids = [...this.held.keys()];
    try {
      const kept = await renewLeases(this.opts.handle.db, { workerId: this.id, ids, leaseMs: this.opts.leaseMs });
      for (const id of ids) if (!kept.includes(id)) this.held.get(id)?.abort(new Error("lease lost"));
      await this.opts.handle.db.update(workers).set({ heartbeatAt: sql`now()` }).where(sql`id = ${this.id}`);
    } catch (e) {
      this.log(`heartbeat failed: ${(e as Error).message}`);
    }
  }

  /**
   * LISTEN for wake-up hints, reconnecting until the database is back however long it is away (a
   * worker once stayed on polling alone for good after an outage longer than a second: chaos suite).
   */
  private async listen(): Promise<void> {
    this.listener = listenToChannel(this.opts.databaseUrl, EVENTS_CHANNEL, {
      applicationName: "faultline-worker-listen",
      // A reconnect attempt is cheap and a worker that misses wake-ups only polls: try every second at most.
      maxBackoffMs: 1000,
      onPayload: (payload) => {
        try {
          const p = JSON.parse(payload) as EventsNotification;
          if (p.w) this.wake();
        } catch {
          /* a malformed hint is ignored: polling catches up */
        }
      },
      onListening: (reconnected) => {
        if (!reconnected) return;
        this.log("LISTEN connection back");
        this.wake(); // wake-ups may have been missed meanwhile
      },
      onLost: (reason, retryInMs) => this.log(`LISTEN connection lost (${reason}); polling, retrying in ${retryInMs} ms`),
    });
    await this.listener.ready;
  }

  private wake(): void {
    this.nextGateSweep = 0;
    if (this.wakeSleeper) this.wakeSleeper();
    else this.wakePending = true;
  }

  private sleep(ms: number): Promise<void> {
    if (this.wakePending) {
      this.wakePending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeSleeper = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeSleeper = done;
    });
  }
}
