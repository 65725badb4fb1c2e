import { Link } from 'react-router'

export default function NotFound() {
  return (
    <main className="mx-auto max-w-lg p-10 text-center">
      <h1 className="text-xl font-semibold">Page not found</h1>
      <Link to="/" className="mt-4 inline-block text-indigo-700 underline">
        Go home
      </Link>
    </main>
  )
}
