import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, IsNull } from 'typeorm';
import { AppConfig } from '../../common/config/app-config';
import { TransactionRunner } from '../../common/database/transaction-runner';
import { DeviceFingerprint } from './device-fingerprint.entity';

export interface DeviceReport {
  userAgent: string | null;
  language: string | null;
  ip: string | null;
  screen: Record<string, string>;
}

const SCREEN_FIELDS = ['w', 'h', 'd', 'tz', 'l'] as const;

/**
 * Device fingerprints: the script gives the page a new GUID (gip_device_fingerprint) and loads a hidden
 * frame that reports the device against it. A checkout sends the GUID as DeviceFingerprint.
 */
@Injectable()
export class FingerprintService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly config: AppConfig,
  ) {}

  async script(merchantId: string): Promise<string> {
    const id = randomUUID();
    await this.transactions.run((manager) =>
      manager.getRepository(DeviceFingerprint).insert({ id, merchantId, device: null, recordedAt: null }),
    );
    const frameBase = `${this.config.publicUrl}/fingerprint/${id}`;
    // Plain ES5, no globals but the documented one; the frame carries screen data in its URL.
    return [
      `var gip_device_fingerprint = ${JSON.stringify(id)};`,
      '(function () {',
      '  var s = window.screen || {};',
      '  var q = "w=" + (s.width || "") + "&h=" + (s.height || "") + "&d=" + (s.colorDepth || "") +',
      '    "&tz=" + encodeURIComponent(new Date().getTimezoneOffset()) + "&l=" + encodeURIComponent(navigator.language || "");',
      '  function add() {',
      '    var f = document.createElement("iframe");',
      '    f.id = "gip_fingerprint"; f.title = ""; f.setAttribute("aria-hidden", "true"); f.tabIndex = -1;',
      '    f.style.cssText = "position:absolute;width:0;height:0;border:0;visibility:hidden";',
      `    f.src = ${JSON.stringify(frameBase)} + "?" + q;`,
      '    document.body.appendChild(f);',
      '  }',
      '  if (document.body) add(); else document.addEventListener("DOMContentLoaded", add);',
      '})();',
      '',
    ].join('\n');
  }

  /** The frame's report; only the first one counts (a GUID describes one device). False for an unknown GUID. */
  async record(id: string, report: DeviceReport): Promise<boolean> {
    const screen = Object.fromEntries(SCREEN_FIELDS.flatMap((field) => (report.screen[field] ? [[field, report.screen[field].slice(0, 64)]] : [])));
    const device = JSON.stringify({ userAgent: report.userAgent?.slice(0, 500) ?? null, language: report.language?.slice(0, 100) ?? null, ip: report.ip, screen });
    const result = await this.transactions.run((manager) =>
      manager.getRepository(DeviceFingerprint).update({ id, recordedAt: IsNull() }, { device, recordedAt: new Date() }),
    );
    return result.affected === 1 || (await this.dataSource.getRepository(DeviceFingerprint).existsBy({ id }));
  }

  /** Whether a checkout may use this DeviceFingerprint: a GUID this service issued to this merchant. */
  isKnownDevice(merchantId: string, id: string): Promise<boolean> {
    return this.dataSource.getRepository(DeviceFingerprint).existsBy({ id, merchantId });
  }
}
