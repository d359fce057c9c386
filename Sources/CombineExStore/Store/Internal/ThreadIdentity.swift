#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A non-zero number identifying the calling thread (`pthread_self`), cheap to read.
///
/// The store uses it to tell a dispatch made by the thread that is processing (re-entrant: it
/// is queued behind the current action) from a dispatch made by another thread (which waits
/// its turn).
func currentThreadIdentity() -> UInt {
  #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
  #else
    return UInt(pthread_self())
  #endif
}
