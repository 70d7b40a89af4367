import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <section className="page">
      <h1>Nothing here</h1>
      <p>This address is not a page of the dashboard.</p>
      <Link to="/">Back to your instances</Link>
    </section>
  );
}
