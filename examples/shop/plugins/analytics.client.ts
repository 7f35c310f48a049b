export default defineFwPlugin(() => {
  const { analyticsToken } = useRuntimeConfig().public
  console.debug('analytics', analyticsToken)
})
