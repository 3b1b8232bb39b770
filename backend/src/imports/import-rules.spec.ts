import { RoleName } from '../users/roles';
import { oldPathKey } from '../posts/old-path';
import { htmlToMarkdown, wordpressParagraphs } from './html-to-markdown';
import { importedRoles } from './site-importer.service';
import { plainTitle } from './sources/wxr-reader';
import { transliterate } from './transliterate';
import { slugify } from '../../../isomorphic/slug';

describe('What an import keeps and refuses', () => {
  it('keeps a WordPress table with blank lines between its rows as one GFM table', () => {
    const html = '<table>\n<tr>\n<th>A</th>\n<th>B</th>\n</tr>\n\n<tr>\n<td>1</td>\n<td>2 | 3</td>\n</tr>\n</table>';
    expect(wordpressParagraphs(html)).toBe(html);
    expect(htmlToMarkdown(html, { wordpress: true })).toBe('| A   | B   |\n| --- | --- |\n| 1   | 2 \\| 3 |');
  });

  it('keeps a table with merged cells as HTML, only colspan/rowspan/scope attributes left', () => {
    const html =
      '<table class="t" style="width:100%"><tr><th scope="col" colspan="2" onclick="x()">Both</th></tr><tr><td rowspan="1">a</td><td>b</td></tr></table>';
    expect(htmlToMarkdown(html)).toBe(
      '<table><tbody><tr><th scope="col" colspan="2">Both</th></tr><tr><td rowspan="1">a</td><td>b</td></tr></tbody></table>',
    );
  });

  it('makes a title plain text, and leaves a lone "<3" alone', () => {
    expect(plainTitle('Markup: Title <em>With</em> <b>Mark<sup>up</sup></b> &amp; more')).toBe('Markup: Title With Markup & more');
    expect(plainTitle('Café & croissants <3')).toBe('Café & croissants <3');
  });

  it('writes Greek and Cyrillic slugs in Latin letters', () => {
    expect(slugify(transliterate('επίπεδο-2'))).toBe('epipedo-2');
    expect(slugify(transliterate('Привет-мир'))).toBe('privet-mir');
    expect(slugify(transliterate('xin-chào'))).toBe('xin-chao');
  });

  it('stores old paths decoded, with single slashes', () => {
    expect(oldPathKey('//greek/%ce%b5%cf%80%ce%af%cf%80%ce%b5%ce%b4%ce%bf-2/')).toBe('/greek/επίπεδο-2');
  });

  it('never grants ADMIN: an administrator comes in as an author', () => {
    expect(importedRoles([RoleName.ADMIN, RoleName.AUTHOR])).toEqual([RoleName.AUTHOR]);
    expect(importedRoles([RoleName.ADMIN])).toEqual([RoleName.AUTHOR]);
    expect(importedRoles([RoleName.USER])).toEqual([RoleName.USER]);
    expect(importedRoles([])).toEqual([RoleName.USER]);
  });
});
