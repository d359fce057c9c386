#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A non-zero number identifying the calling thread, cheap to read (`pthread_self`).
///
/// The core uses it to tell a re-entrant call (the same thread, from inside a delivery) from a
/// concurrent one (another thread). Thread identifiers are pointers, so the low bit is always
/// zero and callers may use it as a flag.
@inlinable
package func currentThreadIdentity() -> UInt {
  #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
  #else
    return UInt(pthread_self())
  #endif
}
