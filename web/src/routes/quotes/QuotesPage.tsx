export default function QuotesPage() {
  return <p>QuotesPage</p>;
}
