import type { ReactNode } from 'react';

/** The last screen of a password form: a heading, what happened, and the way on to the sign-in page. */
export function AuthOutcome({
  title,
  loginLabel,
  role,
  children,
}: {
  title: string;
  loginLabel: string;
  role?: 'status';
  children: ReactNode;
}) {
  return (
    <div className="space-y-4" role={role}>
      <h2 className="text-xl font-semibold">{title}</h2>
      {children}
      <a href="/login" className="btn-primary w-full">
        {loginLabel}
      </a>
    </div>
  );
}
