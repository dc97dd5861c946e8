export default function CompanyPage() {
  return <p>CompanyPage</p>;
}
