import { emailForAdmins } from '../../../../isomorphic/email-scripts';

/**
 * An e-mail as the back office shows it, so that look-alikes differ at a glance: the domain in
 * punycode, every non-ASCII run of the local part marked (its code points on hover and for screen
 * readers). A plain ASCII address renders as plain text.
 */
export function AdminEmail({ email }: { email: string }) {
  const shown = emailForAdmins(email);
  if (!shown.flagged) return <>{email}</>;
  const runs = (parts: typeof shown.local, side: string) =>
    parts.map((run, index) =>
      run.ascii ? (
        run.text
      ) : (
        <mark
          key={`${side}${index}`}
          className="rounded-sm bg-amber-200 px-0.5 text-amber-950 underline decoration-dotted dark:bg-amber-400 dark:text-slate-950"
          title={run.codePoints}
        >
          {run.text}
          <span className="sr-only"> ({run.codePoints})</span>
        </mark>
      ),
    );
  return (
    <span data-email={email} title={`${email} (non-ASCII)`}>
      {runs(shown.local, 'l')}@{runs(shown.domain, 'd')}
    </span>
  );
}
