import { describe, expect, it } from 'vitest';
import { attachmentDisposition, uniqueZipNames } from './zip-names';

describe('uniqueZipNames', () => {
  it('keeps distinct names and numbers the repeats, before the extension', () => {
    const named = uniqueZipNames([{ name: 'a.txt' }, { name: 'A.txt' }, { name: 'a.txt' }, { name: 'notes' }, { name: 'notes' }]);
    expect(named.map((file) => file.name)).toEqual(['a.txt', 'A (2).txt', 'a (3).txt', 'notes', 'notes (2)']);
  });

  it('keeps slashes out of entry names, which would make folders', () => {
    expect(uniqueZipNames([{ name: '../etc/passwd' }])[0]?.name).toBe('.._etc_passwd');
  });
});

describe('attachmentDisposition', () => {
  it('names the download in ASCII and in UTF-8', () => {
    expect(attachmentDisposition('Fotos Sommer "25" é.zip')).toBe(
      `attachment; filename="Fotos Sommer _25_ _.zip"; filename*=UTF-8''Fotos%20Sommer%20%2225%22%20%C3%A9.zip`,
    );
  });
});

describe('uniqueZipNames, for names stored before they were cleaned', () => {
  it('writes entries without format characters or trailing dots', () => {
    // Act
    const named = uniqueZipNames([{ name: 'photo\u202egnp.html' }, { name: 'ok.exe.' }, { name: '\u200b.' }]);

    // Assess
    expect(named.map((file) => file.name)).toEqual(['photognp.html', 'ok.exe', 'file']);
  });
});
