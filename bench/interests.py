"""Interests as researchers write them, two sentences per arXiv category, written by hand for the
relevance benchmark. Deliberately not the arXiv category descriptions: a person names the topics and
methods of their own work, not the boundaries of a category."""

from __future__ import annotations

INTERESTS = {
    "cs.CV": (
        "I work on visual recognition from images and video: object detection, segmentation and "
        "tracking with deep networks. Lately I am interested in vision-language models, "
        "diffusion-based image generation and reconstructing 3D scenes from photos."
    ),
    "cs.CL": (
        "My research is on natural language processing with large language models: how they "
        "reason, follow instructions and translate between languages. I care about evaluation "
        "benchmarks, hallucination, retrieval-augmented generation and low-resource languages."
    ),
    "cs.AI": (
        "I build autonomous agents on top of large language models that plan, use tools and "
        "reason over several steps. I am interested in multi-agent collaboration, knowledge "
        "representation and making these systems safe and reliable in real decision making."
    ),
    "cs.LG": (
        "I do machine learning research on how neural networks are trained: optimization, "
        "generalization and representation learning. I am especially interested in reinforcement "
        "learning, graph neural networks and theory for why deep models work."
    ),
    "cs.GR": (
        "I work in computer graphics: rendering, geometry processing and the animation of "
        "characters and scenes. Recent projects use neural fields and Gaussian splatting for novel "
        "view synthesis, mesh generation and physically based simulation."
    ),
    "astro-ph.GA": (
        "I study how galaxies form and evolve: star formation, gas accretion, stellar populations "
        "and the feedback of supermassive black holes. I use spectroscopic surveys, JWST "
        "observations of high-redshift galaxies and simulations of the Milky Way and its "
        "satellites."
    ),
    "astro-ph.CO": (
        "I work on cosmology: the expansion history of the universe, dark energy, dark matter and "
        "inflation. I constrain cosmological parameters with the cosmic microwave background, "
        "baryon acoustic oscillations, weak lensing and large-scale structure surveys."
    ),
    "astro-ph.IM": (
        "I develop instruments and data pipelines for astronomy: detectors, calibration and the "
        "software that turns raw telescope data into catalogues. I am interested in radio "
        "interferometers, spectrographs and machine learning for classifying survey transients."
    ),
    "astro-ph.HE": (
        "I study high-energy astrophysics: gamma-ray bursts, pulsars, neutron stars and accreting "
        "black holes, and the cosmic rays and neutrinos they produce. I model relativistic jets "
        "and shocks and interpret X-ray and gamma-ray observations."
    ),
    "astro-ph.SR": (
        "I study stars: stellar structure and evolution, asteroseismology, binary stars and the "
        "magnetic activity of the Sun. I model stellar interiors and atmospheres and compare them "
        "with spectroscopy and photometry of variable stars."
    ),
    "astro-ph.EP": (
        "I work on exoplanets and planetary systems: finding planets with transits and radial "
        "velocities and characterizing their atmospheres. I also model protoplanetary disks, "
        "planet formation and the dynamics of asteroids and comets in the solar system."
    ),
    "gr-qc": (
        "My research is in general relativity and gravitation: black hole spacetimes, "
        "gravitational waves and tests of modified gravity. I work on waveform models for binary "
        "mergers, quasinormal modes and quantum aspects of gravity."
    ),
    "hep-ph": (
        "I work in particle physics phenomenology: physics beyond the Standard Model, dark matter "
        "candidates, neutrino masses and the Higgs sector. I compute cross sections and decay "
        "rates and confront models with collider data from the LHC and flavour experiments."
    ),
    "cond-mat.mtrl-sci": (
        "I compute and design materials from first principles: density functional theory for "
        "electronic structure, defects, phonons and magnetism in crystals and thin films. Recently "
        "I add machine-learned interatomic potentials to screen alloys, battery materials and 2D "
        "materials."
    ),
    "physics.chem-ph": (
        "I am a computational chemist working on electronic structure methods and molecular "
        "dynamics for reactions in solution and at surfaces. I develop quantum chemistry "
        "approximations and machine-learned potential energy surfaces for spectroscopy and "
        "catalysis."
    ),
}
